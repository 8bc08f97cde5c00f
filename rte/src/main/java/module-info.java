/** Launch and wire-up: jmpirun, the embedded key-value exchange, singletons. */
module org.jmca.rte {
    requires org.jmca.config;
    requires info.picocli;
    requires jdk.unsupported;

    exports org.jmca.rte;
    exports org.jmca.rte.launcher;
    exports org.jmca.launch;
    opens org.jmca.rte.launcher to info.picocli;

    provides org.jmca.config.info.InfoSection with org.jmca.rte.WireUpInfo, org.jmca.rte.launcher.AotInfo;
}
