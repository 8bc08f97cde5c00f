/** A modular application: it reads the mpi package and the launch API through their modules' exports. */
module app {
    requires org.jmca.mpi;
    requires org.jmca.rte;
}
