/** coll/gm: collectives written on a GM port of their own (the CollGM paper), with a replaceable HOCON selection map. */
module org.jmca.coll.gm {
    requires org.jmca.mca;
    requires org.jmca.coll.base;
    requires org.jmca.common.gm;
    requires org.jmca.config;
    requires typesafe.config;

    provides org.jmca.mca.Component with org.jmca.coll.gm.GmCollComponent;
}
