/** Parameter sources and tables (Typesafe Config), and the jmca-info command. */
module org.jmca.config {
    requires transitive org.jmca.mca;
    requires typesafe.config;
    requires info.picocli;

    exports org.jmca.config;
    exports org.jmca.config.info;
    opens org.jmca.config to info.picocli;
    opens org.jmca.config.info to info.picocli;

    uses org.jmca.mca.Component;
    uses org.jmca.config.info.InfoSection;
}
