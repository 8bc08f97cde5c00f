/** pml/ob1: matching and the eager and rendezvous protocols over the BTLs. */
module org.jmca.pml.ob1 {
    requires org.jmca.mca;
    requires org.agrona;

    provides org.jmca.mca.Component with org.jmca.pml.ob1.Ob1PmlComponent;
}
