/**
 * The IBM LAPI model (the LAPI performance study's subject): one-sided put, get, active messages
 * and read-modify-write, with counters; a dispatcher that the calls enter; polling and interrupt
 * progress. {@code btl/lapi} implements it and publishes the context it runs
 * ({@link org.jmca.common.lapi.Lapi#published()}), so that benchmarks and tools can use it directly.
 */
package org.jmca.common.lapi;
