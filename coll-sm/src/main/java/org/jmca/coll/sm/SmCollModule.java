package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollTable;

/**
 * coll/sm for one communicator whose ranks share a host: numbers its calls, hands each to an
 * {@link SmCall}, and passes to the module below it (coll/tuned) what does not fit the slots or
 * reuses an earlier call's tag.
 *
 * <p>Calls complete in order at each rank: call {@code s} starts writing only once call
 * {@code s - 1} completed here, so a rank whose flag says {@code s} has completed {@code s - 1},
 * and a rank that has seen every flag of {@code s} knows that everyone is done with {@code s - 1}.
 */
final class SmCollModule implements CollModule {
    static final Set<CollFunction> FUNCTIONS = EnumSet.of(CollFunction.BARRIER, CollFunction.BCAST,
            CollFunction.REDUCE, CollFunction.ALLREDUCE, CollFunction.GATHER, CollFunction.SCATTER,
            CollFunction.ALLGATHER, CollFunction.ALLTOALL, CollFunction.REDUCE_SCATTER_BLOCK, CollFunction.SCAN,
            CollFunction.EXSCAN);

    final CollCommunicator comm;
    final SmCollLayout layout;
    final MemorySegment memory;
    final int rank;
    final int size;
    /** Payload areas: the flags' inline bytes by {@code rank * FLAGS + block}, the slots by {@code rank * SLOTS + slot}. */
    final MemorySegment[] inline;
    final MemorySegment[] slots;
    private final SmCollSegment segment;
    private CollTable below;
    /** The sequence number of the last call this module took. */
    private long issued;
    /** The last call completed here. */
    private long completed;
    /** A call that every rank is known to have completed. */
    private long allDone;
    private final CallOrder order;
    /** Whether waiting spins (a core per rank): then a blocking call polls its flags a while between progress turns. */
    private final boolean spinning;
    private SmCall blocking;

    SmCollModule(CollCommunicator comm, SmCollLayout layout, SmCollSegment segment) {
        this.comm = comm;
        this.layout = layout;
        this.segment = segment;
        this.memory = segment.memory;
        this.rank = comm.rank();
        this.size = comm.size();
        this.order = new CallOrder(comm);
        this.spinning = "spin".equals(comm.progressEngine().waitStrategy());
        this.inline = new MemorySegment[SmCollLayout.FLAGS * size];
        this.slots = new MemorySegment[SmCollLayout.SLOTS * size];
        for (int r = 0; r < size; r++) {
            for (int block = 0; block < SmCollLayout.FLAGS; block++) {
                inline[SmCollLayout.FLAGS * r + block] = memory.asSlice(layout.inline(r, block),
                        SmCollLayout.INLINE_BYTES);
            }
            for (int slot = 0; slot < SmCollLayout.SLOTS; slot++) {
                slots[SmCollLayout.SLOTS * r + slot] = memory.asSlice(layout.slot(r, slot), layout.slotBytes);
            }
        }
    }

    @Override
    public Set<CollFunction> provides() {
        return FUNCTIONS;
    }

    @Override
    public void enable(CollTable below) {
        this.below = below;
    }

    @Override
    public String describe(CollFunction function) {
        return describe(layout.slotBytes, below, function);
    }

    static String describe(long slotBytes, CollTable below, CollFunction function) {
        return "flat on shared memory up to " + slotBytes + " B, else " + belowName(below, function);
    }

    /** The component below that serves {@code function}: {@code coll/tuned}. */
    static String belowName(CollTable below, CollFunction function) {
        return below.provider(function).map(p -> "coll/" + p.component()).orElse("nothing");
    }

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        String declined = decline(function, call);
        if (declined != null) {
            return fallBack(function, call, declined).start(function, call);
        }
        return new SmCall(this, false).begin(function, call, ++issued);
    }

    @Override
    public CollRequest startBlocking(CollFunction function, CollCall call) {
        String declined = decline(function, call);
        if (declined != null) {
            return fallBack(function, call, declined).startBlocking(function, call);
        }
        SmCall reused = blocking == null || !blocking.test() ? new SmCall(this, spinning) : blocking;
        blocking = reused;
        return reused.begin(function, call, ++issued);
    }

    /**
     * Takes the next sequence number for one step of a two-level call, when the call starts: its
     * steps start later, one after the other, in an order that depends on timing, but their
     * numbers must follow the calls' order at every rank of the host.
     */
    long reserve() {
        return ++issued;
    }

    /**
     * Starts call {@code seq} ({@link #reserve reserved}) whatever its tag: a step of a two-level
     * call, whose steps share its tag (the two-level module has checked the tag and the size).
     */
    SmCall step(CollFunction function, CollCall call, long seq, boolean blocking) {
        return new SmCall(this, blocking && spinning).begin(function, call, seq);
    }

    /** Why this call goes to the module below, or null if it is served here. */
    private String decline(CollFunction function, CollCall call) {
        if (!order.fresh(call.tag())) {
            return "the tag of an earlier call, used again";
        }
        long bytes = slotBytesFor(function, call);
        if (bytes > layout.slotBytes) {
            return bytes + " B in a rank's slot, above coll_sm_slot_size=" + layout.slotBytes;
        }
        if (comm.verbosity() >= 2) {
            comm.log("coll:sm: " + function.id() + " of " + call.bytes(call.count()) + " B on " + size
                    + " ranks: flat on shared memory (" + (bytes <= SmCollLayout.INLINE_BYTES ? "in the flags' lines"
                    : "through the slots") + ")");
        }
        return null;
    }

    private CollModule fallBack(CollFunction function, CollCall call, String why) {
        return fallBack(comm, below, function, call, why);
    }

    /** The module below that serves {@code function}; says so at coll_base_verbose 2. */
    static CollModule fallBack(CollCommunicator comm, CollTable below, CollFunction function, CollCall call,
                               String why) {
        if (comm.verbosity() >= 2) {
            comm.log("coll:sm: " + function.id() + " of " + call.bytes(call.count()) + " B on " + comm.size()
                    + " ranks: " + belowName(below, function) + " serves it (" + why + ")");
        }
        return below.module(function);
    }

    /** The bytes a rank writes into its slot for this call. */
    long slotBytesFor(CollFunction function, CollCall call) {
        long block = call.bytes(call.count());
        return switch (function) {
            case BARRIER -> 0;
            case SCATTER, ALLTOALL, REDUCE_SCATTER_BLOCK -> block * size;
            default -> block;
        };
    }

    /** The area rank {@code r} writes {@code bytes} of payload to in call {@code seq}. */
    MemorySegment area(int r, long seq, long bytes) {
        return bytes <= SmCollLayout.INLINE_BYTES ? inline[SmCollLayout.FLAGS * r + (int) (seq % SmCollLayout.FLAGS)]
                : slots[SmCollLayout.SLOTS * r + (int) (seq % SmCollLayout.SLOTS)];
    }

    /** Whether rank {@code r} has published its part of call {@code seq}. */
    boolean arrived(int r, long seq) {
        return SmCollLayout.acquire(memory, layout.flag(r, seq)) >= seq;
    }

    void publish(long seq) {
        SmCollLayout.release(memory, layout.flag(rank, seq), seq);
    }

    /** Whether call {@code seq} may begin here: the one before it completed. */
    boolean ready(long seq) {
        return completed == seq - 1;
    }

    /**
     * Whether this rank may write call {@code seq}'s flag block and, for {@code bytes} above the
     * inline size, its slot: every rank has completed the call that last used them.
     */
    boolean writable(long seq, long bytes) {
        long needed = seq - (bytes <= SmCollLayout.INLINE_BYTES ? SmCollLayout.FLAGS : SmCollLayout.SLOTS);
        if (allDone >= needed) {
            return true;
        }
        long least = Long.MAX_VALUE;
        for (int r = 0; r < size; r++) {
            if (r != rank) {
                long done = SmCollLayout.acquire(memory, layout.done(r));
                if (done < needed) {
                    return false;
                }
                least = Math.min(least, done);
            }
        }
        allDone = least;
        return true;
    }

    /** Call {@code seq} completed here; {@code sawEveryFlag}: every rank's flag of it was seen. */
    void completed(long seq, boolean sawEveryFlag) {
        completed = seq;
        SmCollLayout.release(memory, layout.done(rank), seq);
        if (sawEveryFlag) {
            allDone = Math.max(allDone, seq - 1);
        }
    }

    @Override
    public void free() {
        segment.release();
    }
}
