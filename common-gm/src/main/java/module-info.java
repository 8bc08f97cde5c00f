/** The Myrinet GM model in Java shape, shared by btl/gm (which provides ports) and coll/gm (which writes collectives on a port of its own). */
module org.jmca.common.gm {
    exports org.jmca.common.gm;
}
