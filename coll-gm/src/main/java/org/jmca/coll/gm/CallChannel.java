package org.jmca.coll.gm;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;

/**
 * The MPI level of coll/gm for one collective call (the CollGM paper's section 3.3): messages
 * between the call's ranks over the GM port, so coll/base's schedules run on GM rather than on
 * the PML, and the broadcast can take segments straight from the receive buffers.
 *
 * <p>Messages of up to {@code coll_gm_eager_limit} bytes are copied into pre-registered buffers
 * and sent whole; larger ones are announced (RTS) and written by directed sends into the
 * receiver's memory, which it registers in blocks of {@code coll_gm_rdma_pipeline_block} as it
 * answers (CTS), so registration overlaps the transfer of the block before; heap memory, which
 * GM cannot register, goes through registered staging blocks. Each sender-receiver pair of the
 * call is a stream: its messages are numbered, and a sender may be {@code coll_gm_window}
 * messages ahead of what the receiver has taken; messages that ask for it (every half window)
 * are acknowledged once taken, so a long stream never floods a receiver that has not posted its
 * receives (the paper's request and acknowledgement).
 */
final class CallChannel implements CollCommunicator {
    private final GmEngine engine;
    private final GmComm comm;
    private final int tag;
    private final GmSettings settings;
    private final int[] sendSeq;
    private final int[] recvSeq;
    private final int[] acked;
    private final int[] taken;
    private final ArrayDeque<SendOp>[] waiting;
    private final Map<Integer, RecvOp>[] posted;
    private final Map<Integer, MemorySegment>[] arrived;
    private final Map<Long, SendOp> rendezvousSends = new HashMap<>();
    private final Map<Long, RecvOp> rendezvousRecvs = new HashMap<>();
    private final List<RecvOp> registering = new ArrayList<>();
    private final List<SendOp> stalled = new ArrayList<>();
    private Sink sink;
    private int sinkSource = -1;

    /** Takes the eager messages of one source as they arrive, in GM's receive buffer (or a copy). */
    interface Sink {
        /** Why {@code message} is none of the messages it takes, or null if it is one. */
        String refuses(MemorySegment message);

        /** @return true if it keeps {@code buffer} and gives it back to the engine itself */
        boolean accept(MemorySegment message, GmEngine.Buffer buffer);
    }

    @SuppressWarnings("unchecked")
    CallChannel(GmEngine engine, GmComm comm, int tag) {
        this.engine = engine;
        this.comm = comm;
        this.tag = tag;
        this.settings = engine.settings();
        int n = comm.size();
        sendSeq = new int[n];
        recvSeq = new int[n];
        acked = new int[n];
        taken = new int[n];
        waiting = new ArrayDeque[n];
        posted = new Map[n];
        arrived = new Map[n];
    }

    // Per peer, made when first used: a call talks with few of the communicator's ranks.

    private ArrayDeque<SendOp> waiting(int peer) {
        ArrayDeque<SendOp> queue = waiting[peer];
        return queue != null ? queue : (waiting[peer] = new ArrayDeque<>());
    }

    private Map<Integer, RecvOp> posted(int peer) {
        Map<Integer, RecvOp> map = posted[peer];
        return map != null ? map : (posted[peer] = new HashMap<>());
    }

    private Map<Integer, MemorySegment> arrived(int peer) {
        Map<Integer, MemorySegment> map = arrived[peer];
        return map != null ? map : (arrived[peer] = new HashMap<>());
    }

    GmComm comm() {
        return comm;
    }

    int tag() {
        return tag;
    }

    GmEngine engine() {
        return engine;
    }

    @Override
    public int rank() {
        return comm.rank();
    }

    @Override
    public int size() {
        return comm.size();
    }

    @Override
    public String name() {
        return comm.name();
    }

    @Override
    public int jobRank(int rank) {
        return comm.jobRanks()[rank];
    }

    @Override
    public int contextId() {
        return comm.context();
    }

    private int node(int rank) {
        return comm.nodes()[rank];
    }

    private static long key(int peer, int seq) {
        return (long) peer << 32 | (seq & 0xFFFF_FFFFL);
    }

    private MemorySegment header(int seq, int kind, int flags, long a, long b, long c) {
        MemorySegment header = MemorySegment.ofArray(new long[Wire.HEADER / 8]);
        Wire.write(header, comm.context(), tag, comm.rank(), seq, kind, flags, a, b, c);
        return header;
    }

    // ---- sending ----------------------------------------------------------------------------

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int ignoredTag) {
        SendOp op = new SendOp(dest, sendSeq[dest]++, data, null, null);
        waiting(dest).add(op);
        pumpSends(dest);
        return op;
    }

    /**
     * Sends {@code message} (registered, its header written with this rank as source and the
     * stream's next number) to {@code dest}; {@code shared} counts the destinations it goes to
     * and gives the buffer back after the last.
     */
    PmlRequest sendShared(int dest, MemorySegment message, Shared shared) {
        int seq = sendSeq[dest]++;
        if (Wire.seq(message) != seq) {
            throw new IllegalStateException("message " + Wire.seq(message) + " forwarded as number " + seq);
        }
        SendOp op = new SendOp(dest, seq, null, message, shared);
        waiting(dest).add(op);
        pumpSends(dest);
        return op;
    }

    /** A buffer sent to several ranks, released after the last send completes. */
    static final class Shared {
        private int remaining;
        private final Runnable release;

        Shared(int sends, Runnable release) {
            this.remaining = sends;
            this.release = release;
        }

        void sent() {
            if (--remaining == 0) {
                release.run();
            }
        }
    }

    private void pumpSends(int dest) {
        ArrayDeque<SendOp> queue = waiting(dest);
        while (!queue.isEmpty()) {
            SendOp op = queue.peek();
            if (op.seq >= acked[dest] + settings.window()) {
                return; // the receiver has not taken enough yet; its acknowledgement pumps again
            }
            if (op.message != null) {
                engine.send(node(dest), op.message, op.shared::sent);
                op.finish(); // in a registered buffer now, and on its way: an eager send is done
            } else {
                long length = op.data.byteSize();
                boolean eager = length <= settings.eagerLimit();
                MemorySegment buffer = engine.takeSendBuffer(Wire.HEADER + (eager ? length : 0));
                if (buffer == null) {
                    return; // every send buffer is out; the engine pumps again as they come back
                }
                MemorySegment message = buffer.asSlice(0, Wire.HEADER + (eager ? length : 0));
                Wire.write(message, comm.context(), tag, comm.rank(), op.seq, eager ? Wire.EAGER : Wire.RTS,
                        Wire.flagsFor(op.seq, settings.window()), length, 0, 0);
                if (eager) {
                    MemorySegment.copy(op.data, 0, message, Wire.HEADER, length);
                    engine.send(node(dest), message, () -> engine.giveSendBuffer(buffer));
                    op.finish(); // copied and on its way; the buffer comes back with GM's callback
                } else {
                    rendezvousSends.put(key(dest, op.seq), op);
                    engine.send(node(dest), message, () -> engine.giveSendBuffer(buffer));
                }
            }
            queue.poll();
        }
    }

    /** The receiver is ready for block {@code block}: write it, then say so. */
    private void writeBlock(SendOp op, int block, long address, long length, long offset) {
        MemorySegment source = op.data.asSlice(offset, length);
        if (source.isNative()) {
            engine.port().register(source);
            engine.directedSend(node(op.dest), source, address, () -> engine.port().deregister(source));
        } else {
            MemorySegment staging = engine.takeStaging(length);
            if (staging == null) {
                op.blocked.add(new long[] {block, address, length, offset});
                stalled.add(op);
                return;
            }
            MemorySegment.copy(source, 0, staging, 0, length);
            engine.directedSend(node(op.dest), staging.asSlice(0, length), address, () -> engine.giveStaging(staging));
        }
        // The FIN follows the data on the same stream; the send is done once the receiver has it,
        // so no rank leaves a call (and closes its port) before its peer knows the data is there.
        engine.sendInOrder(node(op.dest), header(op.seq, Wire.FIN, block, 0, 0, 0), () -> op.written(length));
    }

    // ---- receiving --------------------------------------------------------------------------

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int ignoredTag) {
        RecvOp op = new RecvOp(source, recvSeq[source]++, buffer);
        MemorySegment message = arrived[source] == null ? null : arrived[source].remove(op.seq);
        if (message != null) {
            deliver(op, message);
        } else {
            posted(source).put(op.seq, op);
        }
        return op;
    }

    /** From now on the eager messages of {@code source} go to {@code sink}, those already here first. */
    void sink(int source, Sink sink) {
        this.sink = sink;
        this.sinkSource = source;
        if (arrived[source] == null) {
            return;
        }
        for (int seq : arrived[source].keySet().stream().sorted().toList()) {
            MemorySegment early = arrived[source].remove(seq);
            String refused = sink.refuses(early);
            if (refused != null) {
                malformed(node(source), refused);
                return;
            }
            sink.accept(early, null);
            took(source, Wire.flags(early));
        }
    }

    /**
     * A message of this call, in {@code buffer} (or a copy, with a null buffer), from GM node
     * {@code node}. A header that no peer writes fails the engine, naming the node.
     *
     * @return true if the call keeps the buffer (a broadcast forwarding from it)
     */
    boolean arrive(MemorySegment message, GmEngine.Buffer buffer, int node) {
        int source = Wire.source(message);
        int seq = Wire.seq(message);
        int kind = Wire.kind(message);
        if (source < 0 || source >= comm.size()) {
            return malformed(node, "its source, rank " + source + ", is none of the communicator's " + comm.size());
        }
        switch (kind) {
            case Wire.ACK -> {
                long taken = Wire.a(message);
                if (taken < 0 || taken > sendSeq[source]) {
                    return malformed(node, "it acknowledges " + taken + " messages where " + sendSeq[source]
                            + " were sent to rank " + source);
                }
                acked[source] = Math.max(acked[source], (int) taken);
                pumpSends(source);
                return false;
            }
            case Wire.CTS -> {
                SendOp op = rendezvousSends.get(key(source, seq));
                long length = Wire.b(message);
                long offset = Wire.c(message);
                if (op == null) {
                    return malformed(node, "a CTS for message " + seq + " to rank " + source
                            + ", which waits for none");
                }
                if (offset < 0 || length <= 0 || length > op.data.byteSize() - offset
                        || length > op.data.byteSize() - op.requested) {
                    return malformed(node, "a CTS for " + length + " bytes at offset " + offset + " of a message of "
                            + op.data.byteSize() + " (" + op.requested + " asked for before)");
                }
                op.requested += length;
                writeBlock(op, Wire.flags(message), Wire.a(message), length, offset);
                return false;
            }
            case Wire.FIN -> {
                RecvOp op = rendezvousRecvs.get(key(source, seq));
                int block = Wire.flags(message);
                if (op == null || !op.awaits(block)) {
                    return malformed(node, "a FIN for block " + block + " of message " + seq + " from rank " + source
                            + ", which is awaited by no receive");
                }
                op.blockWritten(block);
                return false;
            }
            case Wire.EAGER, Wire.RTS -> {
                long length = Wire.a(message);
                if (seq < taken[source] || seq - (long) taken[source] >= settings.window()) {
                    return malformed(node, "message " + seq + " from rank " + source + ", where messages "
                            + taken[source] + " to " + (taken[source] + settings.window() - 1L) + " may come");
                }
                if (kind == Wire.EAGER ? length < 0 || length > message.byteSize() - Wire.HEADER : length <= 0) {
                    return malformed(node, (kind == Wire.EAGER ? "an eager message of " : "a rendezvous of ") + length
                            + " bytes in a message of " + message.byteSize());
                }
                if (sink != null && source == sinkSource && kind == Wire.EAGER) {
                    String refused = sink.refuses(message);
                    if (refused != null) {
                        return malformed(node, refused);
                    }
                    boolean kept = sink.accept(message, buffer);
                    took(source, Wire.flags(message));
                    return kept;
                }
                RecvOp op = posted[source] == null ? null : posted[source].remove(seq);
                if (op != null) {
                    deliver(op, message);
                } else if (arrived(source).putIfAbsent(seq, buffer == null ? message : GmEngine.copy(message)) != null) {
                    return malformed(node, "message " + seq + " from rank " + source + " came twice");
                }
                return false;
            }
            default -> {
                return malformed(node, "its kind, " + kind + ", is none of coll/gm's");
            }
        }
    }

    private boolean malformed(int node, String why) {
        engine.malformed(node, "for call " + tag + " on " + comm.name() + ", " + why);
        return false;
    }

    private void deliver(RecvOp op, MemorySegment message) {
        long length = Wire.a(message);
        if (length > op.buffer.byteSize()) {
            throw new McaException("a collective message of " + length + " bytes from job rank "
                    + jobRank(op.source) + " on " + comm.name() + " was longer than the " + op.buffer.byteSize()
                    + " expected: the ranks passed different counts or datatypes to the same collective call");
        }
        if (Wire.kind(message) == Wire.EAGER) {
            MemorySegment.copy(message, Wire.HEADER, op.buffer, 0, length);
            op.finish(length);
        } else {
            op.beginRendezvous(length);
            rendezvousRecvs.put(key(op.source, op.seq), op);
            registering.add(op);
            op.registerAhead();
        }
        took(op.source, Wire.flags(message));
    }

    /** The call has taken one more message of {@code source}'s stream; answer its request. */
    private void took(int source, int flags) {
        taken[source]++;
        if ((flags & Wire.REQUEST) != 0) {
            engine.sendControl(node(source), header(0, Wire.ACK, 0, taken[source], 0, 0));
        }
    }

    /** Moves on what waited for a send buffer, a staging block or a registration slot. */
    void advance() {
        for (int dest = 0; dest < waiting.length; dest++) {
            if (waiting[dest] != null && !waiting[dest].isEmpty()) {
                pumpSends(dest);
            }
        }
        if (!registering.isEmpty()) {
            for (RecvOp op : List.copyOf(registering)) {
                op.registerAhead();
            }
        }
        if (stalled.isEmpty()) {
            return;
        }
        for (SendOp op : List.copyOf(stalled)) {
            stalled.remove(op);
            while (!op.blocked.isEmpty()) {
                long[] b = op.blocked.poll();
                writeBlock(op, (int) b[0], b[1], b[2], b[3]);
                if (stalled.contains(op)) {
                    break;
                }
            }
        }
    }

    // ---- requests ---------------------------------------------------------------------------

    /** A send of this call: eager, shared (forwarded), or by directed sends. */
    final class SendOp implements PmlRequest {
        final int dest;
        final int seq;
        final MemorySegment data;
        final MemorySegment message;
        final Shared shared;
        final ArrayDeque<long[]> blocked = new ArrayDeque<>();
        /** Bytes the receiver's CTSs asked for so far. */
        long requested;
        private long bytesWritten;
        private volatile boolean complete;

        SendOp(int dest, int seq, MemorySegment data, MemorySegment message, Shared shared) {
            this.dest = dest;
            this.seq = seq;
            this.data = data;
            this.message = message;
            this.shared = shared;
        }

        void finish() {
            complete = true;
        }

        void written(long length) {
            bytesWritten += length;
            if (bytesWritten == data.byteSize()) {
                rendezvousSends.remove(key(dest, seq));
                finish();
            }
        }

        @Override
        public boolean isComplete() {
            return complete;
        }

        @Override
        public PmlStatus status() {
            return PmlStatus.EMPTY;
        }

        @Override
        public boolean cancel() {
            return false;
        }
    }

    /** A receive of this call: eager, or by directed sends into its registered blocks. */
    final class RecvOp implements PmlRequest {
        final int source;
        final int seq;
        final MemorySegment buffer;
        private long total;
        private long blockSize;
        private int blocks;
        private int registered;
        private int written;
        private MemorySegment[] targets;
        private boolean[] staged;
        private volatile PmlStatus status;

        RecvOp(int source, int seq, MemorySegment buffer) {
            this.source = source;
            this.seq = seq;
            this.buffer = buffer;
        }

        void finish(long length) {
            status = new PmlStatus(jobRank(source), tag, length, false, false);
        }

        void beginRendezvous(long length) {
            total = length;
            blockSize = settings.pipelineBlock() > 0 ? Math.min(settings.pipelineBlock(), length) : length;
            blocks = (int) ((length + blockSize - 1) / blockSize);
            targets = new MemorySegment[blocks];
            staged = new boolean[blocks];
        }

        /** Registers the next blocks (up to the pipeline's depth ahead of the transfer) and offers them. */
        void registerAhead() {
            while (registered < blocks && registered - written < Wire.PIPELINE_DEPTH) {
                long offset = registered * blockSize;
                long length = Math.min(blockSize, total - offset);
                MemorySegment user = buffer.asSlice(offset, length);
                MemorySegment target;
                if (user.isNative()) {
                    engine.port().register(user);
                    target = user;
                } else {
                    target = engine.takeStaging(length);
                    if (target == null) {
                        return;
                    }
                }
                targets[registered] = target;
                staged[registered] = target != user;
                engine.sendControl(node(source), header(seq, Wire.CTS, registered, target.address(), length, offset));
                registered++;
            }
        }

        /** Whether block {@code block} is offered to the sender and not yet written. */
        boolean awaits(int block) {
            return block >= 0 && block < registered && targets[block] != null;
        }

        void blockWritten(int block) {
            long offset = block * blockSize;
            long length = Math.min(blockSize, total - offset);
            MemorySegment user = buffer.asSlice(offset, length);
            MemorySegment target = targets[block];
            if (!staged[block]) {
                engine.port().deregister(user);
            } else {
                MemorySegment.copy(target, 0, user, 0, length);
                engine.giveStaging(target);
            }
            targets[block] = null;
            if (++written == blocks) {
                registering.remove(this);
                rendezvousRecvs.remove(key(source, seq));
                finish(total);
            } else {
                registerAhead();
            }
        }

        @Override
        public boolean isComplete() {
            return status != null;
        }

        @Override
        public PmlStatus status() {
            return status;
        }

        @Override
        public boolean cancel() {
            return false;
        }
    }
}
