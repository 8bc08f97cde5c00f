/** btl/verbs: InfiniBand verbs (rdma-core through java.lang.foreign, or the software device), connections on demand, RGET and RPUT. */
module org.jmca.btl.verbs {
    requires org.jmca.mca;
    requires org.jmca.btl.base;
    requires transitive org.jmca.common.verbs;

    exports org.jmca.btl.verbs;

    provides org.jmca.mca.Component with org.jmca.btl.verbs.VerbsBtlComponent;
}
