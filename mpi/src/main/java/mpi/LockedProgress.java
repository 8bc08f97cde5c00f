package mpi;

import java.util.List;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine under {@code MPI_THREAD_MULTIPLE}: one lock per process, held by a thread
 * for each PML call ({@link OwnedPml} enters and exits around them), each progress turn and each
 * MPI call that brackets itself with {@link #enter()}; a thread that waits gives the lock up
 * between turns (all its holds, so an enclosing call does not keep the others out), so any number
 * of threads wait at once and whichever turns the engine completes the others' requests. Waiters
 * poll; none sleeps on a condition, so no wake-up can be lost. Only made when the application asks
 * for THREAD_MULTIPLE: the single-threaded path never sees the lock.
 */
final class LockedProgress implements ProgressEngine {
    /** Empty turns a waiter spins between lock hand-overs before it yields its core instead. */
    private static final int SPINS = 100;

    private final ProgressEngine engine;
    private final ReentrantLock lock = new ReentrantLock();

    LockedProgress(ProgressEngine engine) {
        this.engine = engine;
    }

    @Override
    public void enter() {
        lock.lock();
        engine.enter();
    }

    @Override
    public void exit() {
        engine.exit();
        lock.unlock();
    }

    @Override
    public int progress() {
        enter();
        try {
            return engine.progress();
        } finally {
            exit();
        }
    }

    @Override
    public void waitUntil(BooleanSupplier done) {
        int holds = lock.getHoldCount();
        for (int i = 0; i < holds; i++) {
            exit();
        }
        try {
            for (int turn = 0; ; turn++) {
                enter();
                try {
                    if (done.getAsBoolean() || engine.progress() > 0 && done.getAsBoolean()) {
                        return;
                    }
                } finally {
                    exit();
                }
                if (turn < SPINS) {
                    Thread.onSpinWait();
                } else {
                    Thread.yield();
                }
            }
        } finally {
            for (int i = 0; i < holds; i++) {
                enter();
            }
        }
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
