/** btl/thread: ranks that are threads of one JVM, through lock-free rings in native memory. */
module org.jmca.btl.thread {
    requires org.jmca.mca;
    requires org.jmca.btl.base;

    provides org.jmca.mca.Component with org.jmca.btl.thread.ThreadBtlComponent;
}
