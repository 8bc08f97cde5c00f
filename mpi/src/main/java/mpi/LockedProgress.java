package mpi;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine under {@code MPI_THREAD_MULTIPLE}: one lock per process, held by a thread
 * for each PML call ({@link OwnedPml} enters and exits around them), each progress turn and each
 * MPI call that brackets itself with {@link #enter()}. A thread that waits gives up the holds of
 * its enclosing call, then keeps the lock across its turns only while no other thread asks for it
 * (a lone waiter pays one lock per wait, not one per turn), so any number of threads wait at once
 * and whichever turns the engine completes the others' requests. Waiters poll, and a thread that
 * asked for the lock is handed it by the holder's release, so no wake-up can be lost. Only made
 * when the application asks for THREAD_MULTIPLE: the single-threaded path never sees the lock.
 */
final class LockedProgress extends ProgressView {
    /** Empty turns a waiter spins before it yields its core, when it may (see {@link #waitUntil}). */
    private static final int SPINS = 100;

    /** Fair: a waiter that gives the lock up between turns cannot take it straight back from the thread that asked. */
    private final ReentrantLock lock = new ReentrantLock(true);
    /** Threads in {@link #waitUntil} now. */
    private final AtomicInteger waiters = new AtomicInteger();
    /** The engine's own waits spin and never yield (a core per rank). */
    private final boolean engineSpins;

    LockedProgress(ProgressEngine engine) {
        super(engine);
        this.engineSpins = engine.waitStrategy().equals("spin");
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
        waiters.incrementAndGet();
        enter();
        try {
            for (int turn = 0; ; turn++) {
                if (done.getAsBoolean() || engine.progress() > 0 && done.getAsBoolean()) {
                    return;
                }
                // The lock stays with a waiter whom nobody else wants it from: a lone thread turns
                // the engine as fast as without the lock. Another thread asking for it gets it
                // between two turns.
                boolean yield = turn >= SPINS && !(engineSpins && waiters.get() == 1);
                if (yield || lock.hasQueuedThreads()) {
                    exit();
                    if (yield) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                    enter();
                } else {
                    Thread.onSpinWait();
                }
            }
        } finally {
            exit();
            waiters.decrementAndGet();
            for (int i = 0; i < holds; i++) {
                enter();
            }
        }
    }
}
