package org.jmca.btl.lapi;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReferenceArray;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.HeaderHandler;
import org.jmca.common.lapi.Lapi;
import org.jmca.common.lapi.LapiCounter;
import org.jmca.common.lapi.LapiException;
import org.jmca.common.lapi.LapiMode;
import org.jmca.common.lapi.Reception;
import org.jmca.common.lapi.RmwOp;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.Peer;

/**
 * One task's LAPI context on the emulated switch: the calls of {@link Lapi}, which queue their
 * operations for the {@link Dispatcher} and visit it as the {@link DispatchMode} says.
 *
 * <p>Made in two steps, as a BTL module is: {@link #open} creates the task's file and wire
 * before the job's address exchange ({@link #address()} is what to publish); {@link #connect}
 * reaches every task once all have published.
 */
public final class LapiTask implements Lapi, AutoCloseable {
    /** The key under which a task publishes its wire's address. */
    public static final String WIRE_KEY = "lapi.wire";
    /** Header handlers of JMCA's own, after the application's. */
    static final int EXCHANGE_HANDLER = HANDLERS;
    static final int BTL_HANDLER = HANDLERS + 1;
    private static final int ALL_HANDLERS = HANDLERS + 2;
    private static final long WIRE_QUEUE_LIMIT = 4L << 20;
    /** How long a closing task tries to deliver what it still owes reachable peers. */
    private static final long DRAIN_NANOS = java.util.concurrent.TimeUnit.SECONDS.toNanos(2);

    private final int task;
    private final int tasks;
    private final LapiSettings settings;
    private final Path fabric;
    private final String hostname;
    private final Arena arena = Arena.ofShared();
    private final TaskFile own;
    private final LapiWire wire;
    private final Regions regions = new Regions();
    private final AtomicReferenceArray<HeaderHandler> handlers = new AtomicReferenceArray<>(ALL_HANDLERS);
    /** Counters other tasks may name, by the reference {@link #addressInit(LapiCounter)} gave out. */
    private final Map<Long, TaskCounter> namedCounters = new ConcurrentHashMap<>();
    private final AtomicLong nextCounterReference = new AtomicLong();
    private final AtomicLong nextOperation = new AtomicLong();
    /** The values of the collective exchanges in progress, by round; every task calls collectives in the same order. */
    private final Map<Long, long[]> exchanges = new ConcurrentHashMap<>();
    private final Map<Long, AtomicLong> arrivals = new ConcurrentHashMap<>();
    private final AtomicLong rounds = new AtomicLong();
    private final DispatchMode mode;
    private Dispatcher dispatcher;
    private volatile LapiException failure;
    private volatile boolean closed;

    private LapiTask(LapiSettings settings, Path fabric, int task, int tasks, String hostname, byte[] jobKey) {
        if (task < 0 || task >= tasks) {
            throw new IllegalArgumentException("task " + task + " is outside 0.." + (tasks - 1));
        }
        this.task = task;
        this.tasks = tasks;
        this.settings = settings;
        this.fabric = fabric;
        this.hostname = hostname;
        this.mode = switch (settings.mode()) {
            case POLLING -> new GlobalLockMode(this, settings, false);
            case INTERRUPT -> new GlobalLockMode(this, settings, true);
            case LOCKFREE -> new LockFreeMode(this, settings);
        };
        this.own = TaskFile.create(fabric, task, tasks, settings.ringCapacity(), arena);
        this.wire = new LapiWire(task, tasks, jobKey, WIRE_QUEUE_LIMIT, settings.ringCapacity());
        wire.deliverInto(own); // before the address is published: a remote task may send at once
        own.setOpen(true);
        handlers.set(EXCHANGE_HANDLER, this::onExchange);
    }

    /**
     * Creates task {@code task}'s file in {@code fabric} (a directory every task of this host
     * shares) and starts listening for tasks of other hosts.
     */
    public static LapiTask open(LapiSettings settings, Path fabric, int task, int tasks, String hostname,
                                byte[] jobKey) {
        return new LapiTask(settings, fabric, task, tasks, hostname, jobKey);
    }

    /** What the other tasks need to reach this one. */
    public Map<String, String> address() {
        return Map.of(WIRE_KEY, wire.address());
    }

    /**
     * Reaches every task (this one included): through its file when it is on this host, over the
     * wire otherwise; then starts the mode's threads.
     *
     * @param peers every task of the job, by task number, with the addresses they published
     */
    public void connect(List<Peer> peers) {
        if (peers.size() != tasks) {
            throw new IllegalArgumentException(peers.size() + " peers for a job of " + tasks + " tasks");
        }
        Link[] links = new Link[tasks];
        SharedRing[] inbound = new SharedRing[tasks];
        for (Peer peer : peers) {
            int t = peer.rank();
            inbound[t] = own.ring(t);
            boolean local = peer.hostname().equals(hostname) && settings.wire() == LapiSettings.Wire.AUTO;
            if (t == task) {
                links[t] = new RingLink(own, task, mode.notifies());
            } else if (local) {
                links[t] = new RingLink(TaskFile.open(fabric, t, tasks, arena), task, mode.notifies());
            } else {
                String at = peer.addresses().get(WIRE_KEY);
                if (at == null) {
                    throw new LapiException("btl/lapi: task " + t + " on " + peer.hostname()
                            + " published no wire address, so task " + task + " cannot reach it");
                }
                wire.learn(t, at);
                links[t] = new WireLink(wire, t);
            }
        }
        dispatcher = new Dispatcher(this, settings.packetPayload(), LapiSettings.MAX_USER_HEADER, links, inbound,
                mode::runCompletion, arena);
        mode.start(dispatcher, own.ownDoorbell(arena, dispatcher::hasArrivals));
    }

    // ---- what the dispatcher asks of its task -------------------------------------------------

    Regions regions() {
        return regions;
    }

    HeaderHandler handler(int index) {
        return index >= 0 && index < ALL_HANDLERS ? handlers.get(index) : null;
    }

    TaskCounter counterFor(long reference) {
        return namedCounters.get(reference);
    }

    /** Records the first failure; the task's calls throw it from now on. */
    void fail(String message) {
        if (failure == null) {
            failure = new LapiException(message);
        }
    }

    boolean failed() {
        return failure != null;
    }

    /** An answer made outside the dispatcher (a completion handler's acknowledgement). */
    void answer(Operation operation) {
        dispatcher.submitAnswer(operation);
        mode.answerQueued();
    }

    /** Registers one of JMCA's own header handlers ({@link #BTL_HANDLER}). */
    void registerInternal(int index, HeaderHandler handler) {
        handlers.set(index, handler);
    }

    /** True while operations started here, or answers owed to others, have not gone out or been answered. */
    boolean busy() {
        return dispatcher.busy();
    }

    // ---- the calls ----------------------------------------------------------------------------

    @Override
    public int task() {
        return task;
    }

    @Override
    public int tasks() {
        return tasks;
    }

    @Override
    public LapiMode mode() {
        return settings.mode();
    }

    @Override
    public int maxUserHeader() {
        return LapiSettings.MAX_USER_HEADER;
    }

    @Override
    public LapiCounter newCounter() {
        return new TaskCounter();
    }

    @Override
    public void setcntr(LapiCounter counter, long value) {
        mine(counter).set(value);
    }

    @Override
    public long getcntr(LapiCounter counter) {
        return mine(counter).value();
    }

    @Override
    public void waitcntr(LapiCounter counter, long value) {
        TaskCounter c = mine(counter);
        checkUsable();
        while (!c.tryTake(value)) {
            mode.waitUntil(() -> c.value() >= value);
            rethrow();
        }
    }

    @Override
    public long[] addressInit(MemorySegment local) {
        expose(local);
        return exchange(local.address());
    }

    @Override
    public long[] addressInit(LapiCounter counter) {
        TaskCounter c = mine(counter);
        long reference = nextCounterReference.incrementAndGet();
        namedCounters.put(reference, c);
        return exchange(reference);
    }

    @Override
    public void expose(MemorySegment memory) {
        regions.expose(memory);
    }

    @Override
    public void withdraw(MemorySegment memory) {
        regions.withdraw(memory);
    }

    @Override
    public void registerHandler(int index, HeaderHandler handler) {
        if (index < 0 || index >= HANDLERS) {
            throw new LapiException("handler index " + index + " is outside 0.." + (HANDLERS - 1));
        }
        handlers.set(index, handler);
    }

    @Override
    public void put(int target, long targetAddress, MemorySegment origin, long targetCounter, LapiCounter originCounter,
                    LapiCounter completionCounter) {
        checkTarget(target);
        submit(Operation.put(target, nextOperation.incrementAndGet(), targetAddress, origin, targetCounter,
                mineOrNull(originCounter), mineOrNull(completionCounter)));
    }

    @Override
    public void get(int target, long targetAddress, MemorySegment origin, long targetCounter,
                    LapiCounter completionCounter) {
        checkTarget(target);
        if (origin.isReadOnly()) {
            throw new LapiException("the origin buffer of a get is read-only");
        }
        submit(Operation.get(target, nextOperation.incrementAndGet(), targetAddress, origin, targetCounter,
                mineOrNull(completionCounter)));
    }

    @Override
    public void amsend(int target, int handler, MemorySegment userHeader, MemorySegment data, long targetCounter,
                       LapiCounter originCounter, LapiCounter completionCounter) {
        if (handler < 0 || handler >= HANDLERS) {
            throw new LapiException("handler index " + handler + " is outside 0.." + (HANDLERS - 1));
        }
        activeMessage(target, handler, userHeader, data, targetCounter, originCounter, completionCounter);
    }

    /** An active message to any handler, JMCA's own included. */
    void activeMessage(int target, int handler, MemorySegment userHeader, MemorySegment data, long targetCounter,
                       LapiCounter originCounter, LapiCounter completionCounter) {
        checkTarget(target);
        if (userHeader.byteSize() > LapiSettings.MAX_USER_HEADER) {
            throw new LapiException("a user header of " + userHeader.byteSize() + " bytes is above the largest, "
                    + LapiSettings.MAX_USER_HEADER);
        }
        MemorySegment header = MemorySegment.ofArray(userHeader.toArray(ValueLayout.JAVA_BYTE));
        submit(Operation.amsend(target, nextOperation.incrementAndGet(), handler, header, data, targetCounter,
                mineOrNull(originCounter), mineOrNull(completionCounter)));
    }

    @Override
    public void rmw(int target, RmwOp op, long targetAddress, long operand, long comparand, MemorySegment previous,
                    LapiCounter originCounter) {
        checkTarget(target);
        if (previous != null && previous.byteSize() < 8) {
            throw new LapiException("the previous value needs 8 bytes, not " + previous.byteSize());
        }
        submit(Operation.rmw(target, nextOperation.incrementAndGet(), op.ordinal(), targetAddress, operand, comparand,
                previous, mineOrNull(originCounter)));
    }

    @Override
    public void probe() {
        checkUsable();
        mode.call();
    }

    @Override
    public void fence() {
        checkUsable();
        mode.waitUntil(() -> dispatcher.outstanding() == 0);
        rethrow();
    }

    @Override
    public void gfence() {
        fence();
        exchange(0);
    }

    private void submit(Operation operation) {
        checkUsable();
        dispatcher.submit(operation);
        mode.call();
    }

    /** Collective: every task's {@code value}, by task, carried by active messages to JMCA's exchange handler. */
    private long[] exchange(long value) {
        checkUsable();
        long round = rounds.incrementAndGet();
        long[] values = exchanges.computeIfAbsent(round, r -> new long[tasks]);
        values[task] = value;
        AtomicLong arrived = arrivals.computeIfAbsent(round, r -> new AtomicLong());
        MemorySegment header = MemorySegment.ofArray(new long[] {round, value});
        for (int t = 0; t < tasks; t++) {
            if (t != task) {
                activeMessage(t, EXCHANGE_HANDLER, header, MemorySegment.NULL, NO_COUNTER, null, null);
            }
        }
        mode.waitUntil(() -> arrived.get() == tasks - 1);
        rethrow();
        exchanges.remove(round);
        arrivals.remove(round);
        return values;
    }

    private Reception onExchange(int origin, MemorySegment userHeader, long dataLength) {
        long round = userHeader.get(ValueLayout.JAVA_LONG_UNALIGNED, 0);
        exchanges.computeIfAbsent(round, r -> new long[tasks])[origin] = userHeader.get(ValueLayout.JAVA_LONG_UNALIGNED, 8);
        arrivals.computeIfAbsent(round, r -> new AtomicLong()).incrementAndGet();
        return null;
    }

    // ---- checks -------------------------------------------------------------------------------

    private void checkUsable() {
        if (closed) {
            throw new LapiException("task " + task + "'s LAPI context is closed");
        }
        if (dispatcher == null) {
            throw new LapiException("task " + task + "'s LAPI context is not connected yet");
        }
        rethrow();
    }

    private void rethrow() {
        LapiException f = failure;
        if (f != null) {
            throw new LapiException(f.getMessage());
        }
    }

    private void checkTarget(int target) {
        if (target < 0 || target >= tasks) {
            throw new LapiException("target task " + target + " is outside 0.." + (tasks - 1));
        }
    }

    private static TaskCounter mine(LapiCounter counter) {
        if (counter instanceof TaskCounter c) {
            return c;
        }
        throw new LapiException(counter == null ? "the counter is null"
                : "the counter " + counter + " was not made by btl/lapi's newCounter()");
    }

    private static TaskCounter mineOrNull(LapiCounter counter) {
        return counter == null ? null : mine(counter);
    }

    // ---- the end ------------------------------------------------------------------------------

    List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> all = new ArrayList<>(mode.performanceVariables());
        all.add(LapiBtlComponent.PACKETS_IN.readBy(() -> dispatcher == null ? 0 : dispatcher.packetsIn()));
        all.add(LapiBtlComponent.PACKETS_OUT.readBy(() -> dispatcher == null ? 0 : dispatcher.packetsOut()));
        return all;
    }

    /**
     * Stops LAPI's threads, sends what is queued for reachable peers (up to 2 s), closes the wire
     * and unmaps the files. No call of this task may be in progress; operations still waiting for
     * an answer are dropped.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (dispatcher != null) {
            mode.stop();
            // a call still leaving the dispatcher has left; the answers owed go out before peers see us closed
            mode.exclusively(() -> dispatcher.drain(DRAIN_NANOS));
        }
        own.setOpen(false);
        wire.close();
        arena.close();
        try {
            Files.deleteIfExists(own.path);
        } catch (IOException ignored) {
            // the launcher removes the session directory anyway
        }
    }

    @Override
    public String toString() {
        return "LAPI task " + task + " of " + tasks + " (" + settings.mode().name().toLowerCase(java.util.Locale.ROOT)
                + " mode)";
    }
}
