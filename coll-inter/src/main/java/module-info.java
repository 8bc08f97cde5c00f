/** coll/inter: the collectives of intercommunicators, between their two groups. */
module org.jmca.coll.inter {
    requires org.jmca.mca;
    requires org.jmca.coll.base;

    provides org.jmca.mca.Component with org.jmca.coll.inter.InterCollComponent;
}
