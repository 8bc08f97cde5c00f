/** The mpi package: the API of Open MPI's Java bindings, over JMCA's selected components. */
module org.jmca.mpi {
    requires org.jmca.mca;
    requires org.jmca.config;
    requires org.jmca.rte;
    requires org.jmca.osc;
    requires org.jmca.runtime;

    exports mpi;

    uses org.jmca.mca.Component;
}
