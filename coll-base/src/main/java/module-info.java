/** Every collective algorithm of Open MPI's tuned component, as schedules of rounds shared by the coll components. */
module org.jmca.coll.base {
    requires transitive org.jmca.mca;

    exports org.jmca.coll.base;
}
