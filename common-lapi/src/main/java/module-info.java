/** The IBM LAPI model: put, get, active messages, read-modify-write and counters; btl/lapi implements it and publishes its context to benchmarks and tools. */
module org.jmca.common.lapi {
    requires transitive org.jmca.mca;

    exports org.jmca.common.lapi;
}
