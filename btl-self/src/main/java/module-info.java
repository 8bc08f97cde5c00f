/** btl/self: the BTL to one's own rank. */
module org.jmca.btl.self {
    requires org.jmca.mca;
    requires org.jmca.btl.base;

    provides org.jmca.mca.Component with org.jmca.btl.self.SelfBtlComponent;
}
