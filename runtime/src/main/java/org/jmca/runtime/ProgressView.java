package org.jmca.runtime;

import java.util.List;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine as MPI calls see it when they must own it first (asynchronous progress,
 * {@link OwnedProgress}; THREAD_MULTIPLE, {@link LockedProgress}): a subclass says how turns,
 * waits, entering and exiting own the engine; the rest goes to the engine as it is.
 */
abstract class ProgressView implements ProgressEngine {
    final ProgressEngine engine;

    ProgressView(ProgressEngine engine) {
        this.engine = engine;
    }

    @Override
    public Registration register(ProgressCallback callback, Priority priority) {
        return engine.register(callback, priority);
    }

    @Override
    public boolean isAsynchronous() {
        return engine.isAsynchronous();
    }

    @Override
    public void startAsync(AsyncSources sources) {
        engine.startAsync(sources);
    }

    @Override
    public boolean onHelperThread() {
        return engine.onHelperThread();
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return engine.performanceVariables();
    }

    @Override
    public String waitStrategy() {
        return engine.waitStrategy();
    }

    @Override
    public void close() {
        engine.close();
    }
}
