package org.jmca.btl.lapi;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.HeaderHandler;
import org.jmca.common.lapi.Reception;
import org.jmca.common.lapi.RmwOp;

/**
 * LAPI's dispatcher, the progress engine of one task: it packetizes what calls queued, feeds the
 * packets to the switch as room allows (a full ring is LAPI's lack of send tokens: the message
 * waits), places arriving packets into the target memory, runs header handlers, acknowledges
 * what completed, answers gets and read-modify-writes, and increments counters.
 *
 * <p>Threads: {@link #submit} from any thread; everything else by the one thread that holds the
 * dispatcher at the time (the global lock, or the lock-free ownership, as the mode says).
 */
final class Dispatcher {
    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final RmwOp[] RMW_OPS = RmwOp.values();

    private final LapiTask task;
    private final int self;
    private final int packetPayload;
    private final Link[] links;
    private final SharedRing[] inbound;
    private final SharedRing.Handler[] handlers;
    /** Calls put their operations here without holding the dispatcher. */
    private final ConcurrentLinkedQueue<Operation> submissions = new ConcurrentLinkedQueue<>();
    /** Per target: what waits to be packetized, in order. */
    private final ArrayDeque<Operation>[] queues;
    /** Operations waiting for their acknowledgement or reply, by id. */
    private final Long2ObjectHashMap<Operation> awaiting = new Long2ObjectHashMap<>();
    /** Per origin: its active message in progress (a target receives one message at a time from each). */
    private final Reassembly[] receptions;
    /** Per origin: the status of its put in progress (an error in any packet fails the whole put). */
    private final long[] putStatus;
    /** Runs a completion handler and what follows it: inline, or on the completion-handler thread. */
    private final Consumer<Runnable> completions;
    /** The scratch header: the 40 header bytes, room for a user header after them. */
    private final MemorySegment header;
    private final MemorySegment headerSlice;
    private volatile int queuedOperations;
    private volatile int awaitingCount;
    private long packetsIn;
    private long packetsOut;

    /** An active message being received from one origin. */
    private static final class Reassembly {
        long id;
        MemorySegment buffer;
        Reception reception;
        long targetCounter;
        long status;
    }

    @SuppressWarnings("unchecked")
    Dispatcher(LapiTask task, int packetPayload, int maxUserHeader, Link[] links, SharedRing[] inbound,
               Consumer<Runnable> completions, Arena arena) {
        this.task = task;
        this.self = task.task();
        this.packetPayload = packetPayload;
        this.links = links;
        this.inbound = inbound;
        this.completions = completions;
        this.header = arena.allocate(Packet.HEADER + maxUserHeader, 8);
        this.headerSlice = header.asSlice(0, Packet.HEADER);
        int tasks = links.length;
        this.queues = new ArrayDeque[tasks];
        this.receptions = new Reassembly[tasks];
        this.putStatus = new long[tasks];
        this.handlers = new SharedRing.Handler[tasks];
        for (int t = 0; t < tasks; t++) {
            queues[t] = new ArrayDeque<>();
            receptions[t] = new Reassembly();
            int from = t;
            handlers[t] = (kind, memory, offset, length) -> onPacket(from, kind, memory, offset, length);
        }
    }

    /** Queues an operation for the dispatcher; any thread. */
    void submit(Operation operation) {
        submissions.offer(operation);
    }

    /** True if something waits to go out or to be answered. */
    boolean busy() {
        return !submissions.isEmpty() || queuedOperations > 0 || awaitingCount > 0;
    }

    /** True if a call queued work the dispatcher has not taken yet. */
    boolean hasSubmissions() {
        return !submissions.isEmpty();
    }

    /** True if a packet waits in one of this task's rings. */
    boolean hasArrivals() {
        for (SharedRing ring : inbound) {
            if (ring.hasRecord()) {
                return true;
            }
        }
        return false;
    }

    /** Operations started here that are not complete yet: queued, or waiting for an answer. */
    int outstanding() {
        return awaitingCount + queuedOperations + (submissions.isEmpty() ? 0 : 1);
    }

    long packetsIn() {
        return packetsIn;
    }

    long packetsOut() {
        return packetsOut;
    }

    /** One pass: take what calls queued, place what arrived, send what there is room for. Returns the events. */
    int dispatch() {
        int events = takeSubmissions();
        for (int from = 0; from < inbound.length; from++) {
            events += inbound[from].poll(handlers[from]);
        }
        events += takeSubmissions(); // what completion handlers answered just now goes out in this pass
        events += sendQueued();
        return events;
    }

    private int takeSubmissions() {
        int taken = 0;
        Operation op;
        while ((op = submissions.poll()) != null) {
            if (op.awaitsAnswer()) {
                awaiting.put(op.id, op);
                awaitingCount++;
            }
            enqueue(op);
            taken++;
        }
        return taken;
    }

    private void enqueue(Operation op) {
        queues[op.target].addLast(op);
        queuedOperations++;
    }

    // ---- sending ----------------------------------------------------------------------------

    private int sendQueued() {
        int events = 0;
        for (int target = 0; target < queues.length; target++) {
            ArrayDeque<Operation> queue = queues[target];
            if (queue.isEmpty()) {
                continue;
            }
            Link link = links[target];
            boolean sent = false;
            while (!queue.isEmpty()) {
                Operation op = queue.peekFirst();
                long before = packetsOut;
                boolean whole = emit(link, op);
                sent |= packetsOut != before;
                if (!whole) {
                    break;
                }
                queue.pollFirst();
                queuedOperations--;
                packetized(op);
                events++;
            }
            if (sent) {
                link.wake();
            }
        }
        return events;
    }

    /** The operation's data has all gone out. */
    private void packetized(Operation op) {
        if (op.originCounter != null && op.kind != Packet.RMW) {
            op.originCounter.increment();
        }
        if (op.readCounter != null) {
            op.readCounter.increment();
        }
    }

    /** Emits the operation's remaining packets while the link takes them; true once all are out. */
    private boolean emit(Link link, Operation op) {
        return switch (op.kind) {
            case Packet.PUT -> emitPut(link, op);
            case Packet.AM -> emitActiveMessage(link, op);
            case Packet.GET_REPLY -> emitGetReply(link, op);
            default -> offer(link, op.kind, op.id, op.a, op.b, op.c, op.flags, MemorySegment.NULL);
        };
    }

    private boolean emitPut(Link link, Operation op) {
        long total = op.data.byteSize();
        do {
            long n = Math.min(packetPayload, total - op.sent);
            boolean last = op.sent + n == total;
            if (!offer(link, Packet.PUT, op.id, op.a + op.sent, op.b, 0, last ? Packet.LAST : 0,
                    op.data.asSlice(op.sent, n))) {
                return false;
            }
            op.sent += n;
        } while (op.sent < total);
        return true;
    }

    private boolean emitActiveMessage(Link link, Operation op) {
        long total = op.data.byteSize();
        if (op.sent == 0 && !firstActiveMessagePacket(link, op, total)) {
            return false;
        }
        while (op.sent < total) {
            long n = Math.min(packetPayload, total - op.sent);
            boolean last = op.sent + n == total;
            if (!offer(link, Packet.AM_DATA, op.id, op.sent, 0, 0, last ? Packet.LAST : 0,
                    op.data.asSlice(op.sent, n))) {
                return false;
            }
            op.sent += n;
        }
        return true;
    }

    /** The first packet: the user header, then as much data as fits. Marks that data as sent. */
    private boolean firstActiveMessagePacket(Link link, Operation op, long total) {
        long userHeaderLength = op.userHeader.byteSize();
        long n = Math.min(Math.max(0, packetPayload - userHeaderLength), total);
        MemorySegment.copy(op.userHeader, 0, header, Packet.HEADER, userHeaderLength);
        if (!offer(link, Packet.AM, op.id, op.a, op.b, op.c, op.flags | (n == total ? Packet.LAST : 0),
                Packet.HEADER + userHeaderLength, n == 0 ? MemorySegment.NULL : op.data.asSlice(0, n))) {
            return false;
        }
        op.sent = n;
        return true;
    }

    private boolean emitGetReply(Link link, Operation op) {
        long total = op.data == null ? 0 : op.data.byteSize();
        do {
            long n = Math.min(packetPayload, total - op.sent);
            boolean last = op.sent + n == total;
            if (!offer(link, Packet.GET_REPLY, op.id, op.sent, 0, op.c, last ? Packet.LAST : 0,
                    n == 0 ? MemorySegment.NULL : op.data.asSlice(op.sent, n))) {
                return false;
            }
            op.sent += n;
        } while (op.sent < total);
        return true;
    }

    private boolean offer(Link link, byte kind, long id, long a, long b, long c, long flags, MemorySegment payload) {
        return offer(link, kind, id, a, b, c, flags, Packet.HEADER, payload);
    }

    /** Writes the header words into the scratch header, whose first {@code headerLength} bytes go out before {@code payload}. */
    private boolean offer(Link link, byte kind, long id, long a, long b, long c, long flags, long headerLength,
                          MemorySegment payload) {
        MemorySegment h = header;
        h.set(ValueLayout.JAVA_LONG, 0, id);
        h.set(ValueLayout.JAVA_LONG, Packet.A, a);
        h.set(ValueLayout.JAVA_LONG, Packet.B, b);
        h.set(ValueLayout.JAVA_LONG, Packet.C, c);
        h.set(ValueLayout.JAVA_LONG, Packet.FLAGS, flags);
        if (!link.offer(kind, headerLength == Packet.HEADER ? headerSlice : h.asSlice(0, headerLength), payload)) {
            return false;
        }
        packetsOut++;
        return true;
    }

    // ---- receiving --------------------------------------------------------------------------

    /** A packet from {@code from} that no task sends: the task fails, naming it; the packet is dropped. */
    private void malformed(int from, byte kind, String what) {
        task.fail("btl/lapi: task " + self + " received a malformed " + Packet.kindName(kind) + " packet from task "
                + from + ": " + what);
    }

    private void onPacket(int from, byte kind, MemorySegment memory, long at, long length) {
        packetsIn++;
        if (length < Packet.HEADER) {
            malformed(from, kind, length + " bytes, shorter than the " + Packet.HEADER + "-byte header");
            return;
        }
        long id = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at);
        long a = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at + Packet.A);
        long b = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at + Packet.B);
        long c = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at + Packet.C);
        long flags = memory.get(ValueLayout.JAVA_LONG_UNALIGNED, at + Packet.FLAGS);
        long payloadAt = at + Packet.HEADER;
        long payloadLength = length - Packet.HEADER;
        boolean last = (flags & Packet.LAST) != 0;
        switch (kind) {
            case Packet.PUT -> onPut(from, id, a, b, last, memory, payloadAt, payloadLength);
            case Packet.GET -> onGet(from, id, a, b, c);
            case Packet.GET_REPLY -> onGetReply(id, a, c, last, memory, payloadAt, payloadLength);
            case Packet.AM -> onActiveMessage(from, id, a, b, c, flags, memory, payloadAt, payloadLength);
            case Packet.AM_DATA -> onActiveMessageData(from, a, last, memory, payloadAt, payloadLength);
            case Packet.ACK -> onAck(id, c);
            case Packet.RMW -> onRmw(from, id, a, b, c, Packet.rmwOp(flags));
            case Packet.RMW_REPLY -> onRmwReply(id, a, c);
            default -> task.fail("btl/lapi: task " + self + " received a packet of unknown kind " + kind + " from task "
                    + from);
        }
    }

    private void onPut(int from, long id, long address, long targetCounter, boolean last, MemorySegment memory,
                       long payloadAt, long payloadLength) {
        MemorySegment target = task.regions().find(address, payloadLength);
        if (target == null) {
            putStatus[from] = Packet.NOT_EXPOSED;
        } else if (putStatus[from] == Packet.OK) {
            MemorySegment.copy(memory, payloadAt, target, 0, payloadLength);
        }
        if (last) {
            long status = putStatus[from];
            putStatus[from] = Packet.OK;
            if (status == Packet.OK) {
                status = incrementTargetCounter(targetCounter);
            }
            enqueue(Operation.ack(from, id, status));
        }
    }

    private long incrementTargetCounter(long reference) {
        if (reference == 0) {
            return Packet.OK;
        }
        TaskCounter counter = task.counterFor(reference);
        if (counter == null) {
            return Packet.NO_COUNTER;
        }
        counter.increment();
        return Packet.OK;
    }

    private void onGet(int from, long id, long address, long length, long targetCounter) {
        MemorySegment source = task.regions().find(address, length);
        TaskCounter read = targetCounter == 0 ? null : task.counterFor(targetCounter);
        long status = source == null ? Packet.NOT_EXPOSED
                : targetCounter != 0 && read == null ? Packet.NO_COUNTER : Packet.OK;
        enqueue(Operation.getReply(from, id, status == Packet.OK ? source : null, status, status == Packet.OK ? read : null));
    }

    private void onGetReply(long id, long offset, long status, boolean last, MemorySegment memory, long payloadAt,
                            long payloadLength) {
        Operation op = awaiting.get(id);
        if (op == null) {
            return;
        }
        if (payloadLength > 0) {
            long room = op.destination == null ? 0 : op.destination.byteSize();
            if (offset < 0 || offset > room || payloadLength > room - offset) {
                malformed(op.target, Packet.GET_REPLY, payloadLength + " bytes at offset " + offset + " of a "
                        + room + "-byte buffer");
                answered(op, Packet.MALFORMED);
                return;
            }
            MemorySegment.copy(memory, payloadAt, op.destination, offset, payloadLength);
        }
        if (last) {
            answered(op, status);
        }
    }

    private void onActiveMessage(int from, long id, long handler, long dataLength, long targetCounter, long flags,
                                 MemorySegment memory, long payloadAt, long payloadLength) {
        Reassembly r = receptions[from];
        r.id = id;
        r.targetCounter = targetCounter;
        r.status = Packet.OK;
        r.buffer = null;
        r.reception = null;
        int userHeaderLength = Packet.userHeaderLength(flags);
        HeaderHandler h = handler == (int) handler ? task.handler((int) handler) : null;
        if (userHeaderLength > payloadLength) {
            malformed(from, Packet.AM, "a user header of " + userHeaderLength + " bytes in " + payloadLength);
            r.status = Packet.MALFORMED;
        } else if (h == null) {
            r.status = Packet.NO_HANDLER;
        } else {
            try {
                Reception reception = h.onHeader(from, memory.asSlice(payloadAt, userHeaderLength), dataLength);
                r.reception = reception;
                r.buffer = reception == null ? null : reception.buffer();
                if (dataLength > 0 && (r.buffer == null || r.buffer.byteSize() < dataLength)) {
                    r.status = Packet.SHORT_BUFFER;
                    task.fail("btl/lapi: task " + self + ": header handler " + handler + " gave a buffer of "
                            + (r.buffer == null ? "null" : r.buffer.byteSize() + " bytes") + " for the " + dataLength
                            + " bytes of an active message from task " + from);
                }
            } catch (RuntimeException e) {
                r.status = Packet.HANDLER_FAILED;
                task.fail("btl/lapi: task " + self + ": header handler " + handler + " threw " + e);
            }
        }
        long firstData = payloadLength - userHeaderLength;
        if (firstData > 0 && r.status == Packet.OK && !fits(from, Packet.AM, r, 0, firstData)) {
            r.status = Packet.MALFORMED;
        }
        if (firstData > 0 && r.status == Packet.OK) {
            MemorySegment.copy(memory, payloadAt + userHeaderLength, r.buffer, 0, firstData);
        }
        if ((flags & Packet.LAST) != 0) {
            complete(from, r);
        }
    }

    private void onActiveMessageData(int from, long offset, boolean last, MemorySegment memory, long payloadAt,
                                     long payloadLength) {
        Reassembly r = receptions[from];
        if (r.status == Packet.OK && payloadLength > 0 && !fits(from, Packet.AM_DATA, r, offset, payloadLength)) {
            r.status = Packet.MALFORMED;
        }
        if (r.status == Packet.OK && payloadLength > 0) {
            MemorySegment.copy(memory, payloadAt, r.buffer, offset, payloadLength);
        }
        if (last) {
            complete(from, r);
        }
    }

    /** True if {@code bytes} at {@code offset} fit the buffer of the active message in progress; else says so. */
    private boolean fits(int from, byte kind, Reassembly r, long offset, long bytes) {
        long room = r.buffer == null ? 0 : r.buffer.byteSize();
        if (offset >= 0 && offset <= room && bytes <= room - offset) {
            return true;
        }
        malformed(from, kind, bytes + " bytes of data at offset " + offset + (r.buffer == null
                ? ", with no active message in progress" : " of a " + room + "-byte buffer"));
        return false;
    }

    /** All of an active message is in: its completion handler, then the target counter, then the acknowledgement. */
    private void complete(int origin, Reassembly r) {
        long id = r.id;
        long status = r.status;
        long counter = r.targetCounter;
        Reception reception = r.reception;
        r.buffer = null;
        r.reception = null;
        if (status != Packet.OK || reception == null || reception.completion() == null) {
            enqueue(Operation.ack(origin, id, status == Packet.OK ? incrementTargetCounter(counter) : status));
            return;
        }
        completions.accept(() -> {
            long s = Packet.OK;
            try {
                reception.completion().onComplete();
            } catch (RuntimeException e) {
                s = Packet.HANDLER_FAILED;
                task.fail("btl/lapi: task " + self + ": a completion handler threw " + e);
            }
            if (s == Packet.OK) {
                s = incrementTargetCounter(counter);
            }
            task.answer(Operation.ack(origin, id, s));
        });
    }

    /** An answer made outside the dispatcher (by the completion-handler thread): queued like a call's. */
    void submitAnswer(Operation answer) {
        submissions.offer(answer);
    }

    private void onAck(long id, long status) {
        Operation op = awaiting.get(id);
        if (op != null) {
            answered(op, status);
        }
    }

    private void onRmw(int from, long id, long address, long operand, long comparand, int op) {
        if (op >= RMW_OPS.length) {
            malformed(from, Packet.RMW, "operation " + op + ", not 0.." + (RMW_OPS.length - 1));
            enqueue(Operation.rmwReply(from, id, 0, Packet.MALFORMED));
            return;
        }
        if ((address & 7) != 0) {
            enqueue(Operation.rmwReply(from, id, 0, Packet.MISALIGNED));
            return;
        }
        MemorySegment word = task.regions().find(address, 8);
        if (word == null) {
            enqueue(Operation.rmwReply(from, id, 0, Packet.NOT_EXPOSED));
            return;
        }
        long previous = switch (RMW_OPS[op]) {
            case SWAP -> (long) LONG.getAndSet(word, 0L, operand);
            case COMPARE_AND_SWAP -> (long) LONG.compareAndExchange(word, 0L, comparand, operand);
            case FETCH_AND_ADD -> (long) LONG.getAndAdd(word, 0L, operand);
            case FETCH_AND_OR -> (long) LONG.getAndBitwiseOr(word, 0L, operand);
        };
        enqueue(Operation.rmwReply(from, id, previous, Packet.OK));
    }

    private void onRmwReply(long id, long previous, long status) {
        Operation op = awaiting.get(id);
        if (op == null) {
            return;
        }
        if (status == Packet.OK && op.destination != null) {
            op.destination.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, previous);
        }
        if (op.originCounter != null && status == Packet.OK) {
            op.originCounter.increment();
        }
        answered(op, status);
    }

    /** The operation's answer arrived: it is complete (or failed, which the task reports). */
    private void answered(Operation op, long status) {
        awaiting.remove(op.id);
        if (status != Packet.OK) {
            // the failure first: a fence that sees nothing outstanding must also see why
            String where = op.kind == Packet.AM ? "handler " + op.a : "address 0x" + Long.toHexString(op.a);
            task.fail("btl/lapi: task " + op.target + " refused the " + op + " from task " + self + " (" + where
                    + "): " + Packet.describe(status));
        } else if (op.completionCounter != null) {
            op.completionCounter.increment();
        }
        awaitingCount--;
    }

    /**
     * Sends what is queued for tasks still reachable, for up to {@code nanos}: a closing task
     * first delivers the answers it owes (an acknowledgement made as the last message arrived).
     */
    void drain(long nanos) {
        long deadline = System.nanoTime() + nanos;
        while (hasQueuedForReachable() && System.nanoTime() < deadline) {
            if (dispatch() == 0) {
                Thread.yield();
            }
        }
    }

    private boolean hasQueuedForReachable() {
        if (!submissions.isEmpty()) {
            return true;
        }
        for (int target = 0; target < queues.length; target++) {
            if (!queues[target].isEmpty() && links[target].lost() == null) {
                return true;
            }
        }
        return false;
    }

    private boolean anyAwaitedTargetLost() {
        for (Operation op : awaiting.values()) {
            if (links[op.target].lost() != null) {
                return true;
            }
        }
        return false;
    }

    // ---- watching -----------------------------------------------------------------------------

    /**
     * The retransmission/timeout tick's check: a target that can no longer be reached, or an
     * operation older than {@code timeoutNanos}, fails the task with what was outstanding.
     */
    void check(long timeoutNanos) {
        if (awaitingCount == 0) {
            return;
        }
        if (anyAwaitedTargetLost()) {
            // A peer writes its last answers before it closes: what it wrote is visible now that
            // its closing is, so take it before judging what the peer left unanswered.
            dispatch();
        }
        long now = System.nanoTime();
        List<String> problems = new ArrayList<>();
        for (Operation op : awaiting.values()) {
            String lost = links[op.target].lost();
            if (lost != null) {
                problems.add("task " + op.target + " can no longer be reached (" + lost + ") with the " + op
                        + " outstanding");
            } else if (now - op.issuedNanos > timeoutNanos) {
                problems.add("the " + op + " was not answered within " + TimeUnit.NANOSECONDS.toSeconds(timeoutNanos)
                        + " s (btl_lapi_timeout)");
            }
            if (problems.size() >= 3) {
                break;
            }
        }
        if (!problems.isEmpty()) {
            task.fail("btl/lapi: task " + self + ": " + String.join("; ", problems));
        }
    }
}
