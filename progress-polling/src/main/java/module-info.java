/** The progress engine: callbacks of high and low priority, and waiting by spin, yield or park. */
module org.jmca.progress {
    requires org.jmca.mca;
    requires org.agrona;

    exports org.jmca.progress;

    provides org.jmca.mca.Component with org.jmca.progress.PollingProgressComponent;
}
