package org.jmca.mca.param;

/** When a parameter may change. */
public enum Scope {
    /** Fixed once its framework is open: components read it while they set themselves up. */
    READ_ONLY,
    /** May be changed through the API while the job runs. */
    SETTABLE
}
