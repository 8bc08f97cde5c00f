/** btl/sm: processes on one host, through lock-free rings in mapped /dev/shm files. */
module org.jmca.btl.sm {
    requires org.jmca.mca;
    requires org.jmca.btl.base;

    provides org.jmca.mca.Component with org.jmca.btl.sm.SmBtlComponent;
}
