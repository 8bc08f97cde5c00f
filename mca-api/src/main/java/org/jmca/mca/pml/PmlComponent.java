package org.jmca.mca.pml;

import org.jmca.mca.Component;
import org.jmca.mca.Framework;

/**
 * A point-to-point messaging layer. Single-select, and every rank must select the same one
 * (checked at wire-up).
 */
public interface PmlComponent extends Component {

    @Override
    default Framework framework() {
        return Framework.PML;
    }

    /** Makes the process's point-to-point module over the selected BTL modules. */
    PmlModule createModule(PmlEnvironment environment);
}
