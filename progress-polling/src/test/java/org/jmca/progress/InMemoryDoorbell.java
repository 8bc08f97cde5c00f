package org.jmca.progress;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jmca.mca.btl.BtlDoorbell;

/** A doorbell in one process, for tests: the "peer" is another thread that calls {@link #ringIfArmed()}. */
final class InMemoryDoorbell implements BtlDoorbell {
    private final AtomicBoolean armed = new AtomicBoolean();
    private final AtomicInteger rings = new AtomicInteger();
    private volatile BooleanSupplier arrivals = () -> false;
    private volatile Thread sleeper;
    /** Times the helper went to sleep on this bell. */
    final AtomicInteger awaits = new AtomicInteger();

    void arrivals(BooleanSupplier arrivals) {
        this.arrivals = arrivals;
    }

    /** What a peer does after announcing a rendezvous. */
    boolean ringIfArmed() {
        if (!armed.get()) {
            return false;
        }
        ringSelf();
        return true;
    }

    @Override
    public void arm() {
        armed.set(true);
    }

    @Override
    public void disarm() {
        armed.set(false);
    }

    @Override
    public boolean hasArrivals() {
        return arrivals.getAsBoolean();
    }

    @Override
    public boolean armed() {
        return armed.get();
    }

    @Override
    public int rings() {
        return rings.get();
    }

    @Override
    public void await(int seen, long timeoutNanos) {
        sleeper = Thread.currentThread();
        awaits.incrementAndGet();
        if (rings.get() == seen) {
            LockSupport.parkNanos(timeoutNanos);
        }
    }

    @Override
    public void ringSelf() {
        rings.incrementAndGet();
        Thread s = sleeper;
        if (s != null) {
            LockSupport.unpark(s);
        }
    }
}
