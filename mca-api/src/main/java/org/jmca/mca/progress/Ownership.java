package org.jmca.mca.progress;

import java.util.concurrent.atomic.AtomicInteger;

/**
 * Who may run a piece of progress now (the PML's turn, a LAPI dispatcher): exactly one party at
 * a time, handed over with one compare-and-set, never a lock (after MVAPICH's lock-free
 * asynchronous rendezvous, Kumar et al.).
 *
 * <p>Two kinds of party take it. The <em>application</em> is in a hurry: {@link #acquire} spins
 * until it has it and meanwhile says it wants it ({@link #wanted()}). A <em>helper</em> thread
 * only ever {@link #tryAcquire}s it, and gives it up between units of work once the application
 * wants it, so steady work never starves the application.
 *
 * <p>Memory ordering: a party that acquires sees everything the previous owner wrote before it
 * released (the release is a volatile store, the acquire a compare-and-set).
 */
public final class Ownership {
    /** Nobody holds it. */
    public static final int FREE = 0;
    public static final int APPLICATION = 1;
    public static final int HELPER = 2;

    private final AtomicInteger owner = new AtomicInteger(FREE);
    /** Set by the application while it waits for a helper to give up: the helper releases after its turn. */
    private volatile boolean wanted;

    /** Takes it for {@code party} if it is free; true if taken. */
    public boolean tryAcquire(int party) {
        return owner.get() == FREE && owner.compareAndSet(FREE, party);
    }

    /**
     * The application takes it, waiting for the helper to finish its turn: spins briefly, then
     * yields, in case both share one CPU and the helper cannot run while the application spins.
     *
     * @return true if it had to wait
     */
    public boolean acquire() {
        if (owner.compareAndSet(FREE, APPLICATION)) {
            return false;
        }
        wanted = true;
        for (int attempt = 1; !owner.compareAndSet(FREE, APPLICATION); attempt++) {
            if (attempt < 100) {
                Thread.onSpinWait();
            } else {
                Thread.yield();
            }
        }
        wanted = false;
        return true;
    }

    /** True while the application waits in {@link #acquire}: a helper should release after its current unit of work. */
    public boolean wanted() {
        return wanted;
    }

    /** The holder gives it up. */
    public void release() {
        owner.set(FREE);
    }

    /** The current holder: {@link #FREE}, {@link #APPLICATION} or {@link #HELPER}. */
    public int holder() {
        return owner.get();
    }
}
