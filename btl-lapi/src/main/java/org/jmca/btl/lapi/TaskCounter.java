package org.jmca.btl.lapi;

import java.util.concurrent.atomic.AtomicLong;
import org.jmca.common.lapi.LapiCounter;

/**
 * A LAPI counter of this implementation. Incremented by whichever thread runs the dispatcher or a
 * completion handler; read and decremented by application threads; hence atomic.
 */
final class TaskCounter implements LapiCounter {
    private final AtomicLong value = new AtomicLong();

    @Override
    public long value() {
        return value.get();
    }

    void increment() {
        value.incrementAndGet();
    }

    void set(long v) {
        value.set(v);
    }

    /** Takes {@code amount} off if the counter holds at least that much; true if it did. */
    boolean tryTake(long amount) {
        while (true) {
            long v = value.get();
            if (v < amount) {
                return false;
            }
            if (value.compareAndSet(v, v - amount)) {
                return true;
            }
        }
    }

    @Override
    public String toString() {
        return "LapiCounter[" + value.get() + "]";
    }
}
