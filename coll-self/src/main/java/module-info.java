/** coll/self: the collectives of a communicator of one process. */
module org.jmca.coll.self {
    requires org.jmca.mca;
    requires org.jmca.coll.base;

    provides org.jmca.mca.Component with org.jmca.coll.self.SelfCollComponent;
}
