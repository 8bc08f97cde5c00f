/**
 * What the mpi API calls: the job's runtime between MPI.Init and Finalize, communicators'
 * point-to-point and collective calls, users' buffers, datatype layouts and reductions. Loaded
 * once per JVM: thread ranks each have their own copy of the mpi package (its statics are the
 * rank's), and all of them call this one, so the JIT compiles it once.
 */
module org.jmca.runtime {
    requires transitive org.jmca.mca;
    requires transitive org.jmca.config;
    requires transitive org.jmca.rte;
    requires transitive org.jmca.osc;

    exports org.jmca.runtime;

    uses org.jmca.mca.Component;
}
