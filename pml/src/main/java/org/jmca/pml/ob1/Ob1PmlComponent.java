package org.jmca.pml.ob1;

import org.jmca.mca.pml.PmlComponent;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;

/** {@code pml/ob1}: matching and the eager and rendezvous protocols over the selected BTLs. */
public final class Ob1PmlComponent implements PmlComponent {

    @Override
    public String name() {
        return "ob1";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public PmlModule createModule(PmlEnvironment environment) {
        return new Ob1PmlModule(environment);
    }
}
