/** coll/tuned: a forced algorithm, a rules table (Open MPI's format or HOCON), or the fixed rules; and jmca-coll-rules. */
module org.jmca.coll.tuned {
    requires org.jmca.mca;
    requires org.jmca.coll.base;
    requires org.jmca.config;
    requires typesafe.config;
    requires info.picocli;

    exports org.jmca.coll.tuned.rules;
    opens org.jmca.coll.tuned.rules to info.picocli;

    provides org.jmca.mca.Component with org.jmca.coll.tuned.TunedCollComponent;
}
