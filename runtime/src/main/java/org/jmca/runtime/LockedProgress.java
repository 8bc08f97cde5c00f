package org.jmca.runtime;

import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine under {@code MPI_THREAD_MULTIPLE}: one lock per process, held by a thread
 * for each PML call ({@link OwnedPml} enters and exits around them), each progress turn and each
 * MPI call that brackets itself with {@link #enter()}. A thread that waits keeps the lock across
 * its turns only while no other thread asks for it (a lone waiter takes it once per call, not once
 * per turn) and hands over every hold it has when one does, so any number of threads wait at once
 * and whichever turns the engine completes the others' requests. Waiters poll, and a thread that
 * asked for the lock is handed it by the holder's release, so no wake-up can be lost. Only made
 * when the application asks for THREAD_MULTIPLE: the single-threaded path never sees the lock.
 */
final class LockedProgress extends ProgressView {
    /** Empty turns a waiter spins before it yields its core, when it may (see {@link #waitUntil}). */
    private static final int SPINS = 100;

    /** Fair: a waiter that hands the lock over cannot take it straight back from the thread that asked. */
    private final ReentrantLock lock = new ReentrantLock(true);
    /** The engine's own waits spin and never yield (a core per rank). */
    private final boolean engineSpins;

    LockedProgress(ProgressEngine engine) {
        super(engine);
        this.engineSpins = engine.waitStrategy().equals("spin");
    }

    @Override
    public void enter() {
        lock.lock();
        try {
            engine.enter();
        } catch (RuntimeException | Error e) {
            lock.unlock(); // the caller's exit will not run: the lock must not stay held
            throw e;
        }
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
        boolean outside = !lock.isHeldByCurrentThread();
        if (outside) {
            enter();
        }
        try {
            for (int turn = 0; ; turn++) {
                if (done.getAsBoolean() || engine.progress() > 0 && done.getAsBoolean()) {
                    return;
                }
                // The lock stays with a waiter whom nobody else wants it from: a lone thread turns
                // the engine as fast as without the lock. A thread that asks for it gets it between
                // two turns, every hold the waiter's call had (threads that wait for the lock sleep
                // in it, so only a host with more ranks than cores makes the waiter yield).
                boolean yield = turn >= SPINS && !engineSpins;
                if (yield || lock.hasQueuedThreads()) {
                    int holds = lock.getHoldCount();
                    for (int i = 0; i < holds; i++) {
                        exit();
                    }
                    if (yield) {
                        Thread.yield();
                    } else {
                        Thread.onSpinWait();
                    }
                    for (int i = 0; i < holds; i++) {
                        enter();
                    }
                } else {
                    Thread.onSpinWait();
                }
            }
        } finally {
            if (outside) {
                exit();
            }
        }
    }
}
