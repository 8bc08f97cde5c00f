/** coll/basic: linear and logarithmic collectives, the component every communicator can fall back on. */
module org.jmca.coll.basic {
    requires org.jmca.mca;
    requires org.jmca.coll.base;

    provides org.jmca.mca.Component with org.jmca.coll.basic.BasicCollComponent;
}
