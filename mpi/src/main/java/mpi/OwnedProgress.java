package mpi;

import java.util.List;
import java.util.function.BooleanSupplier;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine as MPI calls use it under asynchronous progress: a turn or a wait is made
 * inside the library, owning progress, so the helper thread stays out of it.
 */
final class OwnedProgress implements ProgressEngine {
    private final ProgressEngine engine;

    OwnedProgress(ProgressEngine engine) {
        this.engine = engine;
    }

    @Override
    public int progress() {
        engine.enter();
        try {
            return engine.progress();
        } finally {
            engine.exit();
        }
    }

    @Override
    public void waitUntil(BooleanSupplier done) {
        engine.enter();
        try {
            engine.waitUntil(done);
        } finally {
            engine.exit();
        }
    }

    @Override
    public Registration register(ProgressCallback callback, Priority priority) {
        return engine.register(callback, priority);
    }

    @Override
    public void enter() {
        engine.enter();
    }

    @Override
    public void exit() {
        engine.exit();
    }

    @Override
    public boolean isAsynchronous() {
        return true;
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
