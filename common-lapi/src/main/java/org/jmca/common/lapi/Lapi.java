package org.jmca.common.lapi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;

/**
 * One task's LAPI context, as IBM's LAPI gives it ({@code lapi_handle_t}): non-blocking put, get,
 * active messages and read-modify-write to the other tasks of the job, each reporting its stages
 * through counters.
 *
 * <ul>
 *   <li><b>origin counter</b>: incremented at the origin when its buffer may be reused;</li>
 *   <li><b>target counter</b>: incremented at the target when the data is there (for a get: when
 *       the target's data has been read);</li>
 *   <li><b>completion counter</b>: incremented at the origin when the operation is complete at
 *       both ends (for a get: when the data has arrived).</li>
 * </ul>
 *
 * Every counter is incremented exactly once per operation that names it. A target counter is
 * named by the reference its task gave out through {@link #addressInit(LapiCounter)}; remote
 * memory by its address, from {@link #addressInit(MemorySegment)}.
 *
 * <p>Nearly every call enters the <em>dispatcher</em>, the progress engine: it packetizes what is
 * queued to go out, places arriving packets, runs header handlers, sends acknowledgements. How
 * the dispatcher is shared between the caller and LAPI's own threads is the context's
 * {@link #mode()}. {@link #getcntr} alone never enters it.
 *
 * <p>Memory: LAPI writes into the target's virtual memory without asking; JMCA checks every
 * remote access against the memory the target {@linkplain #expose exposed} and refuses the rest
 * (the origin's next call throws {@link LapiException}), so a wrong address cannot corrupt the
 * target.
 *
 * <p>Threads: any thread may call any method, as LAPI is thread-safe.
 */
public interface Lapi {

    /** Names no counter, where a remote counter reference is expected. */
    long NO_COUNTER = 0;

    /** Handler indices {@code 0..HANDLERS-1} are the application's. */
    int HANDLERS = 64;

    /** This task's number, {@code 0..tasks()-1} ({@code LAPI_Qenv TASK_ID}). */
    int task();

    /** The number of tasks ({@code NUM_TASKS}). */
    int tasks();

    LapiMode mode();

    /** The largest user header an active message may carry ({@code MAX_UHDR_SZ}). */
    int maxUserHeader();

    /** A new counter, at 0. */
    LapiCounter newCounter();

    /** Sets {@code counter} to {@code value} ({@code LAPI_Setcntr}). */
    void setcntr(LapiCounter counter, long value);

    /** The counter's value, without entering the dispatcher ({@code LAPI_Getcntr}). */
    long getcntr(LapiCounter counter);

    /**
     * Waits until {@code counter} reaches {@code value}, progressing as the mode says, then
     * decrements it by {@code value} ({@code LAPI_Waitcntr}).
     */
    void waitcntr(LapiCounter counter, long value);

    /**
     * Collective: exposes {@code local} (native memory) to every task and returns the address of
     * each task's segment, indexed by task ({@code LAPI_Address_init}).
     */
    long[] addressInit(MemorySegment local);

    /** Collective: returns each task's reference to its {@code counter}, indexed by task. */
    long[] addressInit(LapiCounter counter);

    /** Lets other tasks put, get and read-modify-write in {@code memory} (native) from now on. */
    void expose(MemorySegment memory);

    /** Other tasks may no longer touch {@code memory}. */
    void withdraw(MemorySegment memory);

    /**
     * Registers {@code handler} under {@code index} ({@code 0..HANDLERS-1}); every task registers
     * the same handlers under the same indices before active messages use them.
     */
    void registerHandler(int index, HeaderHandler handler);

    /**
     * Writes {@code origin} into task {@code target}'s memory at {@code targetAddress}
     * ({@code LAPI_Put}).
     *
     * @param targetCounter     a reference from the target's {@link #addressInit(LapiCounter)}, or {@link #NO_COUNTER}
     * @param originCounter     may be null
     * @param completionCounter may be null
     */
    void put(int target, long targetAddress, MemorySegment origin, long targetCounter, LapiCounter originCounter,
             LapiCounter completionCounter);

    /**
     * Reads {@code origin.byteSize()} bytes at {@code targetAddress} of task {@code target} into
     * {@code origin} ({@code LAPI_Get}).
     *
     * @param targetCounter     incremented at the target once its data has been read; or {@link #NO_COUNTER}
     * @param completionCounter incremented here once the data has arrived; may be null
     */
    void get(int target, long targetAddress, MemorySegment origin, long targetCounter, LapiCounter completionCounter);

    /**
     * Sends an active message ({@code LAPI_Amsend}): {@code userHeader} (at most
     * {@link #maxUserHeader()} bytes) goes to the target's header handler number {@code handler},
     * which says where {@code data} goes.
     */
    void amsend(int target, int handler, MemorySegment userHeader, MemorySegment data, long targetCounter,
                LapiCounter originCounter, LapiCounter completionCounter);

    /**
     * Read-modify-write of the 8 aligned bytes at {@code targetAddress} of task {@code target}
     * ({@code LAPI_Rmw64}), atomic with respect to every other read-modify-write there. The value
     * before the operation lands in {@code previous} (8 bytes, may be null) before
     * {@code originCounter} is incremented.
     *
     * @param comparand read by {@link RmwOp#COMPARE_AND_SWAP} only
     */
    void rmw(int target, RmwOp op, long targetAddress, long operand, long comparand, MemorySegment previous,
             LapiCounter originCounter);

    /** Enters the dispatcher once ({@code LAPI_Probe}). */
    void probe();

    /** Waits until every operation this task started is complete ({@code LAPI_Fence}). */
    void fence();

    /** Collective: a fence at every task, then a barrier ({@code LAPI_Gfence}). */
    void gfence();

    /** The context btl/lapi runs in this process, if it runs. */
    static Optional<Lapi> published() {
        return Optional.ofNullable(Published.lapi);
    }

    /** Called by btl/lapi once its context is up. */
    static void publish(Lapi lapi) {
        Published.lapi = lapi;
    }

    /** Called by btl/lapi when it finalizes. */
    static void withdraw(Lapi lapi) {
        if (Published.lapi == lapi) {
            Published.lapi = null;
        }
    }

    /** Holds the published context (an interface cannot hold mutable state itself). */
    final class Published {
        private static volatile Lapi lapi;

        private Published() {
        }
    }
}
