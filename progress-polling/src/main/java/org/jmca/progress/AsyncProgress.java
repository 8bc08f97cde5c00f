package org.jmca.progress;

import java.util.List;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;

/** How the application thread and a helper thread share progress; see {@link AsyncMode}. */
sealed interface AsyncProgress permits AsyncProgress.Off, LockBasedProgress, LockFreeProgress {

    /** The application thread enters an MPI call (calls nest). */
    void enter();

    /** The application thread leaves an MPI call. */
    void exit();

    /** Starts the helper thread. */
    void start(AsyncSources sources);

    /** True on the helper thread. */
    boolean onHelperThread();

    List<PerformanceVariable> performanceVariables();

    /** Stops the helper thread and waits for it. */
    void stop();

    /** No helper: the application thread always owns progress. */
    enum Off implements AsyncProgress {
        INSTANCE;

        @Override
        public void enter() {
        }

        @Override
        public void exit() {
        }

        @Override
        public void start(AsyncSources sources) {
        }

        @Override
        public boolean onHelperThread() {
            return false;
        }

        @Override
        public List<PerformanceVariable> performanceVariables() {
            return List.of();
        }

        @Override
        public void stop() {
        }
    }
}
