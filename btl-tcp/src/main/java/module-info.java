/** btl/tcp: any hosts, over NIO, with a job key checked on connect. */
module org.jmca.btl.tcp {
    requires org.jmca.mca;
    requires org.jmca.btl.base;

    provides org.jmca.mca.Component with org.jmca.btl.tcp.TcpBtlComponent;
}
