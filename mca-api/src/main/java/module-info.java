/**
 * The component core of JMCA: frameworks, components, parameters and selection, and the SPI of
 * every framework. A third-party component compiles against this module alone.
 */
module org.jmca.mca {
    requires transitive jdk.jfr;

    exports org.jmca.mca;
    exports org.jmca.mca.param;
    exports org.jmca.mca.btl;
    exports org.jmca.mca.pml;
    exports org.jmca.mca.coll;
    exports org.jmca.mca.progress;
    exports org.jmca.mca.os;
    exports org.jmca.mca.trace;

    uses org.jmca.mca.Component;
}
