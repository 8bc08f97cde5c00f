/** An example third-party btl component; depends on mca-api alone. */
module org.example.jmca.plugin {
    requires org.jmca.mca;

    provides org.jmca.mca.Component with org.example.jmca.plugin.ExampleBtlComponent;
}
