package org.jmca.mca.progress;

import org.jmca.mca.Component;
import org.jmca.mca.Framework;

/** A progress component: makes the process's progress engine. Single-select. */
public interface ProgressComponent extends Component {

    @Override
    default Framework framework() {
        return Framework.PROGRESS;
    }

    /** Makes the engine; called once, on the thread that initializes MPI. */
    ProgressEngine createEngine(ProgressEnvironment environment);
}
