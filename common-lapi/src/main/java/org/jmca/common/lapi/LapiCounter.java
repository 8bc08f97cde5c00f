package org.jmca.common.lapi;

/**
 * A LAPI counter ({@code lapi_cntr_t}): a value that operations increment when they reach a
 * stage (origin buffer free, data at the target, operation complete). Made by
 * {@link Lapi#newCounter()}; read with {@link Lapi#getcntr}, waited for with {@link Lapi#waitcntr}.
 * Another task names it by the reference {@link Lapi#addressInit(LapiCounter)} gives.
 */
public interface LapiCounter {

    /** The current value; reading it never enters the dispatcher. */
    long value();
}
