/** btl/gm: a BTL over the Myrinet GM model, on the emulated GM NIC (shared memory on a host, TCP between hosts). */
module org.jmca.btl.gm {
    requires org.jmca.mca;
    requires org.jmca.btl.base;
    requires transitive org.jmca.common.gm;

    exports org.jmca.btl.gm;

    provides org.jmca.mca.Component with org.jmca.btl.gm.GmBtlComponent;
}
