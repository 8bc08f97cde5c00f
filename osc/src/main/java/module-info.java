/** One-sided communication: MPI windows, direct RMA over BTLs that can put and get, active messages otherwise. */
module org.jmca.osc {
    requires org.jmca.mca;

    exports org.jmca.osc;
}
