package org.jmca.btl.base;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.function.BooleanSupplier;
import org.jmca.mca.btl.BtlDoorbell;

/**
 * A process's doorbell in a shared mapping: an "armed" word and a ring counter that a thread of
 * the owner sleeps on with a futex. The owner arms and waits; a peer reads "armed" and rings
 * (btl/sm's asynchronous progress, btl/lapi's notification thread).
 *
 * <pre>
 *  +0 | armed (int)   1 while the owner wants to be woken
 *  +4 | rings (int)   the futex word, incremented by every ring
 * </pre>
 */
public final class FutexDoorbell implements BtlDoorbell {
    public static final long BYTES = 8;
    private static final VarHandle INT = ValueLayout.JAVA_INT.varHandle();

    private final MemorySegment memory;
    private final long armedAt;
    private final long ringsAt;
    /** The rings word alone, as the futex calls take it. */
    private final MemorySegment ringsWord;
    /** Only for the owner's waits; null on a peer's view of the bell. */
    private final Futex futex;
    /** The owner's check for fragments in its incoming rings. */
    private final BooleanSupplier arrivals;

    private FutexDoorbell(MemorySegment memory, long offset, Futex futex, BooleanSupplier arrivals) {
        this.memory = memory;
        this.armedAt = offset;
        this.ringsAt = offset + 4;
        this.ringsWord = memory.asSlice(ringsAt, 4);
        this.futex = futex;
        this.arrivals = arrivals;
    }

    /** The owner's bell: it can wait on it; {@code arrivals} checks its incoming rings. */
    public static FutexDoorbell owned(MemorySegment memory, long offset, Arena arena, BooleanSupplier arrivals) {
        return new FutexDoorbell(memory, offset, new Futex(arena), arrivals);
    }

    /** A peer's bell: it can only be rung. */
    public static FutexDoorbell peers(MemorySegment memory, long offset) {
        return new FutexDoorbell(memory, offset, null, () -> false);
    }

    /** Why this bell cannot wake anybody here, or null if it can. */
    public String probe() {
        return Futex.probe(ringsWord);
    }

    @Override
    public void arm() {
        INT.setVolatile(memory, armedAt, 1);
        VarHandle.fullFence();
    }

    @Override
    public void disarm() {
        INT.setRelease(memory, armedAt, 0);
    }

    @Override
    public boolean hasArrivals() {
        return arrivals.getAsBoolean();
    }

    @Override
    public boolean armed() {
        return (int) INT.getVolatile(memory, armedAt) != 0;
    }

    @Override
    public int rings() {
        return (int) INT.getVolatile(memory, ringsAt);
    }

    @Override
    public void await(int seen, long timeoutNanos) {
        futex.await(ringsWord, seen, timeoutNanos);
    }

    @Override
    public void ringSelf() {
        INT.getAndAdd(memory, ringsAt, 1);
        Futex.wake(ringsWord);
    }

    /**
     * Rings if the owner armed the bell, and disarms it, after a full fence: a burst of arrivals
     * then wakes the owner once, not once per arrival (interrupt coalescing). True if it rang.
     */
    public boolean ringOnceIfArmed() {
        VarHandle.fullFence();
        if ((int) INT.getVolatile(memory, armedAt) == 0 || !INT.compareAndSet(memory, armedAt, 1, 0)) {
            return false;
        }
        ringSelf();
        return true;
    }

    /**
     * Rings if the owner armed the bell, after a full fence: the fragment announced just before is
     * then either seen by the owner's arrivals check after arming, or rung for. True if it rang.
     */
    public boolean ringIfArmed() {
        VarHandle.fullFence();
        if (!armed()) {
            return false;
        }
        ringSelf();
        return true;
    }
}
