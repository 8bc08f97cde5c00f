/** coll/mcast: broadcast over multicast made reliable (UDP, or the verbs device's UD multicast). */
module org.jmca.coll.mcast {
    requires org.jmca.mca;
    requires org.jmca.btl.base;
    requires org.jmca.common.verbs;

    provides org.jmca.mca.Component with org.jmca.coll.mcast.McastCollComponent;
}
