/** What several components share: shared-memory rings, cross-memory copies, registration caches, the choice of network addresses. */
module org.jmca.btl.base {
    requires org.jmca.mca;

    exports org.jmca.btl.base;
}
