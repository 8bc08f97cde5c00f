/** What several BTLs share: shared-memory rings, cross-memory copies, registration caches. */
module org.jmca.btl.base {
    requires org.jmca.mca;

    exports org.jmca.btl.base;
}
