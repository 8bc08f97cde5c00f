/** coll/sm: the collectives of the ranks of one host, written directly on shared memory. */
module org.jmca.coll.sm {
    requires org.jmca.mca;
    requires org.jmca.coll.base;

    provides org.jmca.mca.Component with org.jmca.coll.sm.SmCollComponent;
}
