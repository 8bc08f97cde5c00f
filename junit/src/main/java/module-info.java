/** A JUnit 5 extension: {@code @MpiTest} runs a test method on N ranks, as threads of the test JVM. */
module org.jmca.junit {
    requires org.jmca.rte;
    requires org.jmca.config;
    requires transitive org.junit.jupiter.api;

    exports org.jmca.junit;
}
