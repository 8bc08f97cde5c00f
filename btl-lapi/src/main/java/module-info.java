/** btl/lapi: the IBM LAPI model on an emulated switch (shared memory on a host, TCP between hosts), and a BTL over it. */
module org.jmca.btl.lapi {
    requires org.jmca.mca;
    requires org.jmca.btl.base;
    requires org.jmca.common.lapi;
    requires org.agrona;

    exports org.jmca.btl.lapi;

    provides org.jmca.mca.Component with org.jmca.btl.lapi.LapiBtlComponent;
}
