package org.jmca.btl.verbs;

import static org.jmca.btl.base.Sockets.readFully;
import static org.jmca.btl.base.Sockets.writeFully;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jmca.btl.base.SharedRing;
import org.jmca.btl.base.SocketWire;

/**
 * The software verbs device's wire between hosts: a TCP connection from each port to each remote
 * port it talks to, on a {@link SocketWire} (which listens, checks the job's key and owns the
 * threads) carrying a protocol of its own. It does what the host's rings and cross-memory copies
 * do for ports on one host, in the way an HCA does it for a remote requester:
 *
 * <ul>
 * <li>packets go into an outbound ring (so the owner's thread never blocks on the network) that
 *     a writer thread sends; at the remote port an agent thread puts them into that port's
 *     inbound ring for the sender, which the port's owner polls as for a local sender;
 * <li>RDMA WRITE, READ and atomics are requests the remote agent carries out on its own
 *     process's memory after checking its region table, answering with a status (and the data, or
 *     the old value) that a reader thread places in the requester's memory; the requester's
 *     queue pair completes the request on its owner's thread, in {@link #takeCompletions}.
 * </ul>
 *
 * Connections are authenticated by the job's key. An agent whose inbound ring is full waits,
 * which stops it reading its socket: TCP's flow control then fills the sender's outbound ring,
 * whose owner sees a full wire exactly as with a full ring on one host. No thread that the
 * device's owner waits for ever waits for that owner, so two busy ports cannot deadlock.
 *
 * <pre>
 *   requester → responder: int length | byte tag | long header0 | long header1 | payload
 *     tag 1..7: a packet of {@link SoftVerbs};  WRITE: header0 = last bit, id, rkey; header1 = address; payload = data
 *     READ: header0 = id, rkey; header1 = address; payload = length (long)
 *     ATOMIC: header0 = id, rkey; header1 = address; payload = opcode (byte), compare/add, swap (longs)
 *     MCAST, MCAST_IMM: header0 = MLID, source QP; header1 = the datagram's Q_Key and immediate data
 *   responder → requester: byte kind | int id | int status | (READ: the data; ATOMIC: the old value)
 * </pre>
 */
final class SoftWire {
    static final byte WRITE = 16;
    static final byte READ = 17;
    static final byte ATOMIC = 18;
    static final byte MCAST = 19;
    static final byte MCAST_IMM = 20;
    private static final long MAGIC = 0x4a4d43412d575231L;
    private static final long LAST = 1L << 63;

    private final SoftVerbs device;
    private final SoftPort port;
    private final int lid;
    private final int ringCapacity;
    private final Arena arena = Arena.ofShared();
    /** The listening socket, the connections and every thread, which {@link #close} waits for. */
    private final SocketWire wire;
    private final Map<Integer, Link> links = new ConcurrentHashMap<>();
    /** What the reader threads have finished, to be completed on the owner's thread. */
    private final ConcurrentLinkedQueue<Runnable> completions = new ConcurrentLinkedQueue<>();
    /** The owner's scratch for a request's operands (the outbound ring copies them at once). */
    private final MemorySegment operands;

    SoftWire(SoftVerbs device, SoftPort port, int lid, byte[] jobKey, int ringCapacity) {
        this.device = device;
        this.port = port;
        this.lid = lid;
        this.ringCapacity = ringCapacity;
        try {
            this.wire = new SocketWire("btl/verbs: soft device port " + lid, lid, MAGIC, jobKey, this::serve);
        } catch (IllegalStateException e) {
            throw new VerbsException(e.getMessage());
        }
        this.operands = arena.allocate(17, 8);
    }

    /** How remote ports reach this one: its IPv4 addresses (loopback last) and port. */
    String address() {
        return wire.address();
    }

    /** The port of {@code peerLid} is on another host (or must be reached by socket): it listens at {@code address}. */
    void learn(int peerLid, String peerAddress) {
        try {
            wire.learn(peerLid, peerAddress);
        } catch (IllegalArgumentException e) {
            throw new VerbsException(e.getMessage());
        }
    }

    /** True while the connection to the remote port is (or can be made) up. */
    boolean up(int peerLid) {
        Link link = link(peerLid);
        return link != null && !link.down;
    }

    /** Queues a packet to the remote port; false when the outbound ring is full. A down link loses it. */
    boolean offer(int peerLid, byte tag, long header0, long header1, MemorySegment payload) {
        Link link = link(peerLid);
        if (link == null || link.down) {
            return true;
        }
        if (!link.outbound.offer(tag, header0, header1, payload)) {
            return false;
        }
        link.wake();
        return true;
    }

    /** A datagram to every queue pair of the remote port attached to the group of {@code mlid}. */
    void multicast(int peerLid, int mlid, boolean withImm, int sourceQp, long header1, MemorySegment payload) {
        offer(peerLid, withImm ? MCAST_IMM : MCAST, (long) mlid << 32 | (sourceQp & 0xFFFFFFFFL), header1, payload);
    }

    /**
     * Queues the part of an RDMA WRITE or READ, or an atomic, that is not queued yet
     * ({@code progress[0]}: bytes of a WRITE queued so far); {@code complete} runs on the owner's
     * thread once the responder answered. Returns false when the outbound ring filled first:
     * call again to go on.
     */
    boolean request(int peerLid, SendRequest request, long[] progress, Consumer<Ibv.WcStatus> complete) {
        Link link = link(peerLid);
        if (link == null || link.down) {
            return true; // lost: the requester's timeout finds the port gone
        }
        long rkey = request.rkey() & 0xFFFFFFFFL;
        switch (request.opcode()) {
            case RDMA_READ -> {
                int id = link.expect(new Pending(request.sges(), complete));
                operands.set(ValueLayout.JAVA_LONG, 0, request.bytes());
                if (!link.outbound.offer(READ, (long) id << 32 | rkey, request.remoteAddress(), operands.asSlice(0, 8))) {
                    link.forget(id);
                    return false;
                }
            }
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                int id = link.expect(new Pending(request.sges(), complete));
                operands.set(ValueLayout.JAVA_BYTE, 0, (byte) request.opcode().value);
                operands.set(ValueLayout.JAVA_LONG_UNALIGNED, 1, request.compareAdd());
                operands.set(ValueLayout.JAVA_LONG_UNALIGNED, 9, request.swap());
                if (!link.outbound.offer(ATOMIC, (long) id << 32 | rkey, request.remoteAddress(), operands)) {
                    link.forget(id);
                    return false;
                }
            }
            default -> {
                if (!queueWrite(link, request, progress, complete)) {
                    return false;
                }
            }
        }
        link.wake();
        return true;
    }

    /** A WRITE in chunks that fit the outbound ring; the last one asks for the answer. */
    private boolean queueWrite(Link link, SendRequest request, long[] progress, Consumer<Ibv.WcStatus> complete) {
        MemorySegment data = device.gather(request.sges(), request.bytes());
        long chunk = ringCapacity / 4 - 64;
        do {
            long at = progress[0];
            long length = Math.min(chunk, data.byteSize() - at);
            boolean last = at + length == data.byteSize();
            int id = last ? link.expect(new Pending(List.of(), complete)) : 0;
            long header0 = (last ? LAST : 0) | (long) id << 32 | (request.rkey() & 0xFFFFFFFFL);
            if (!link.outbound.offer(WRITE, header0, request.remoteAddress() + at, data.asSlice(at, length))) {
                if (last) {
                    link.forget(id);
                }
                link.wake();
                return false;
            }
            progress[0] = at + length;
        } while (progress[0] < data.byteSize());
        return true;
    }

    /** Runs, on the owner's thread, what the reader threads finished. */
    int takeCompletions() {
        int n = 0;
        for (Runnable done; (done = completions.poll()) != null; n++) {
            done.run();
        }
        return n;
    }

    /** The link to a remote port, connected when first asked for (down if it cannot be); null if not remote. */
    private Link link(int peerLid) {
        Link link = links.get(peerLid);
        if (link == null && wire.isOpen() && wire.reaches(peerLid)) {
            SocketChannel channel;
            try {
                channel = wire.connect(peerLid);
            } catch (IOException e) {
                channel = null; // the wire said why
            }
            link = new Link(peerLid, channel);
            links.put(peerLid, link);
        }
        return link;
    }

    // ---- the requester's side of a connection --------------------------------------------------

    /** A request waiting for the responder's answer: where its data goes, and what completes it. */
    private record Pending(List<Sge> local, Consumer<Ibv.WcStatus> complete) {
    }

    /**
     * The connection to one remote port: the outbound ring, its writer, and the reader of answers;
     * down from the start when the connection could not be made.
     */
    private final class Link {
        final SocketChannel channel;
        final SharedRing outbound;
        final Map<Integer, Pending> waiting = new ConcurrentHashMap<>();
        final Thread writer;
        volatile boolean down;
        volatile boolean sleeping;
        private int nextId;

        Link(int peerLid, SocketChannel channel) {
            this.channel = channel;
            if (channel == null) {
                outbound = null;
                writer = null;
                down = true;
                return;
            }
            outbound = new SharedRing(arena.allocate(SharedRing.bytesFor(ringCapacity), 64), 0, ringCapacity);
            writer = wire.start("to port " + peerLid, this::writeLoop);
            wire.start("answers from port " + peerLid, this::readAnswers);
        }

        int expect(Pending pending) {
            int id = nextId = (nextId + 1) & 0x7FFFFFFF;
            waiting.put(id, pending);
            return id;
        }

        void forget(int id) {
            waiting.remove(id);
        }

        /** After a record is published: the fence orders that store before reading {@code sleeping} (the writer does the mirror). */
        void wake() {
            java.lang.invoke.VarHandle.fullFence();
            if (sleeping) {
                LockSupport.unpark(writer);
            }
        }

        /** Sends what the owner queued, in order, in as few writes as it can. */
        private void writeLoop() {
            ByteBuffer out = ByteBuffer.allocateDirect(ringCapacity / 4 + 64);
            MemorySegment outMemory = MemorySegment.ofBuffer(out);
            SharedRing.Handler copy = (tag, data, offset, length) -> {
                if (out.remaining() < 5 + length) {
                    try {
                        flush(out);
                    } catch (IOException e) {
                        throw new java.io.UncheckedIOException(e);
                    }
                }
                out.putInt((int) length).put(tag);
                MemorySegment.copy(data, offset, outMemory, out.position(), length);
                out.position(out.position() + (int) length);
            };
            try {
                while (!down && wire.isOpen()) {
                    if (outbound.poll(copy) == 0) {
                        flush(out);
                        sleeping = true;
                        if (!outbound.hasRecord() && wire.isOpen()) {
                            LockSupport.parkNanos(1_000_000);
                        }
                        sleeping = false;
                    }
                }
            } catch (IOException | RuntimeException e) {
                down = true; // the remote port is gone (or this one closes): the requester's timeouts take over
            }
        }

        private void flush(ByteBuffer out) throws IOException {
            out.flip();
            writeFully(channel, out);
            out.clear();
        }

        /** Places each answer's data in the requester's memory and hands the completion to the owner. */
        private void readAnswers() {
            ByteBuffer head = ByteBuffer.allocate(9);
            try {
                while (true) {
                    head.clear();
                    readFully(channel, head);
                    head.flip();
                    byte kind = head.get();
                    Pending pending = waiting.remove(head.getInt());
                    Ibv.WcStatus status = Ibv.WcStatus.of(head.getInt());
                    if (pending == null) {
                        throw new IOException("an answer to no request");
                    }
                    if (status == Ibv.WcStatus.SUCCESS && kind == READ) {
                        for (Sge sge : pending.local()) {
                            readFully(channel, SoftVerbs.ALL.asSlice(sge.address(), sge.length()).asByteBuffer());
                        }
                    } else if (status == Ibv.WcStatus.SUCCESS && kind == ATOMIC) {
                        ByteBuffer old = SoftVerbs.ALL.asSlice(pending.local().getFirst().address(), 8).asByteBuffer()
                                .order(java.nio.ByteOrder.nativeOrder());
                        readFully(channel, old);
                    }
                    completions.add(() -> pending.complete().accept(status));
                }
            } catch (IOException | RuntimeException e) {
                down = true;
            }
        }
    }

    // ---- the responder's side: an agent per connected remote port --------------------------------

    /** Serves a remote port that presented the job's key, on the wire's agent thread for it. */
    private void serve(int sender, SocketChannel channel) throws IOException {
        if (sender < 1 || sender > port.ports) {
            System.err.println("btl/verbs: soft device port " + lid + " refused a connection from LID " + sender
                    + ", outside the fabric's 1.." + port.ports);
            return;
        }
        try {
            new Agent(channel, sender).run();
        } catch (CorruptFrame e) {
            if (wire.isOpen()) {
                System.err.println(e.getMessage() + ": closing its connection");
            }
        }
    }

    /** A frame no port sends: the agent stops, and its connection is closed with this message. */
    private static final class CorruptFrame extends IOException {
        CorruptFrame(String message) {
            super(message);
        }
    }

    /** Carries out one remote port's packets and requests, in the order sent. */
    private final class Agent {
        private final SocketChannel channel;
        private final SharedRing inbound;
        private final ByteBuffer frame = ByteBuffer.allocateDirect(ringCapacity / 4 + 64);
        private final MemorySegment frameMemory = MemorySegment.ofBuffer(frame);
        private final ByteBuffer answer = ByteBuffer.allocateDirect(17).order(java.nio.ByteOrder.nativeOrder());
        private Ibv.WcStatus writeStatus = Ibv.WcStatus.SUCCESS;

        private final int sender;

        Agent(SocketChannel channel, int sender) {
            this.channel = channel;
            this.sender = sender;
            this.inbound = port.ring(sender);
        }

        void run() throws IOException {
            ByteBuffer head = ByteBuffer.allocate(21).order(java.nio.ByteOrder.nativeOrder());
            while (wire.isOpen()) {
                head.clear();
                readFully(channel, head);
                int length = head.order(java.nio.ByteOrder.BIG_ENDIAN).getInt(0);
                byte tag = head.get(4);
                head.order(java.nio.ByteOrder.nativeOrder());
                long header0 = head.getLong(5);
                long header1 = head.getLong(13);
                int payload = length - 16;
                // A WRITE's data goes straight to memory; everything else must fit the frame buffer.
                if (payload < 0 || tag != WRITE && payload > frame.capacity()) {
                    throw new CorruptFrame("btl/verbs: soft device port " + lid + ": LID " + sender + " sent a frame of "
                            + length + " bytes (type " + tag + "): not 16.." + (16 + frame.capacity()));
                }
                if (tag < WRITE && !SoftVerbs.isPacket(tag) || tag > MCAST_IMM) {
                    throw new CorruptFrame("btl/verbs: soft device port " + lid + ": LID " + sender
                            + " sent a frame of unknown type " + tag);
                }
                int operands = tag == READ ? 8 : tag == ATOMIC ? 17 : 0;
                if (payload < operands) {
                    throw new CorruptFrame("btl/verbs: soft device port " + lid + ": LID " + sender + " sent a frame of type "
                            + tag + " with " + payload + " bytes of operands (" + operands + " needed)");
                }
                switch (tag) {
                    case WRITE -> write(header0, header1, payload);
                    case READ -> read(header0, header1, readPayload(payload).get(ValueLayout.JAVA_LONG, 0));
                    case ATOMIC -> atomic(header0, header1, readPayload(payload));
                    case MCAST, MCAST_IMM -> multicast(tag, header0, header1, readPayload(payload));
                    default -> deliver(tag, header0, header1, readPayload(payload));
                }
            }
        }

        private MemorySegment readPayload(int length) throws IOException {
            frame.clear().limit(length);
            readFully(channel, frame);
            return frameMemory.asSlice(0, length);
        }

        /** Into this port's inbound ring for the sender, waiting while the owner catches up. */
        private void deliver(byte tag, long header0, long header1, MemorySegment payload) {
            while (!inbound.offer(tag, header0, header1, payload)) {
                if (!wire.isOpen()) {
                    return;
                }
                LockSupport.parkNanos(20_000);
            }
        }

        private void multicast(byte tag, long header0, long header1, MemorySegment payload) {
            int sourceQp = (int) header0;
            byte packet = tag == MCAST_IMM ? SoftVerbs.UD_SEND_IMM : SoftVerbs.UD_SEND;
            port.forEachMember((int) (header0 >>> 32), qpn ->
                    deliver(packet, (qpn & 0xFFFFFFFFL) | (long) sourceQp << 32, header1, payload));
        }

        private void write(long header0, long address, int length) throws IOException {
            int rkey = (int) header0;
            if (port.allows(rkey, address, length, Ibv.ACCESS_REMOTE_WRITE)) {
                readFully(channel, SoftVerbs.ALL.asSlice(address, length).asByteBuffer());
            } else {
                for (int left = length; left > 0; left -= frame.capacity()) { // read and dropped
                    readPayload(Math.min(left, frame.capacity()));
                }
                writeStatus = Ibv.WcStatus.REM_ACCESS_ERR;
            }
            if ((header0 & LAST) != 0) {
                answer(WRITE, (int) (header0 >>> 32) & 0x7FFFFFFF, writeStatus);
                flushAnswer();
                writeStatus = Ibv.WcStatus.SUCCESS;
            }
        }

        private void read(long header0, long address, long length) throws IOException {
            int id = (int) (header0 >>> 32);
            boolean allowed = port.allows((int) header0, address, length, Ibv.ACCESS_REMOTE_READ);
            answer(READ, id, allowed ? Ibv.WcStatus.SUCCESS : Ibv.WcStatus.REM_ACCESS_ERR);
            flushAnswer();
            if (allowed) {
                writeFully(channel, SoftVerbs.ALL.asSlice(address, length).asByteBuffer());
            }
        }

        private void atomic(long header0, long address, MemorySegment operands) throws IOException {
            int id = (int) (header0 >>> 32);
            if ((address & 7) != 0) {
                answer(ATOMIC, id, Ibv.WcStatus.REM_INV_REQ_ERR);
            } else if (!port.allows((int) header0, address, 8, Ibv.ACCESS_REMOTE_ATOMIC)) {
                answer(ATOMIC, id, Ibv.WcStatus.REM_ACCESS_ERR);
            } else {
                boolean add = operands.get(ValueLayout.JAVA_BYTE, 0) == Ibv.Opcode.ATOMIC_FETCH_AND_ADD.value;
                long compareAdd = operands.get(ValueLayout.JAVA_LONG_UNALIGNED, 1);
                long swap = operands.get(ValueLayout.JAVA_LONG_UNALIGNED, 9);
                long old = port.atomically(() -> {
                    long value = SoftVerbs.ALL.get(ValueLayout.JAVA_LONG, address);
                    long next = add ? value + compareAdd : value == compareAdd ? swap : value;
                    SoftVerbs.ALL.set(ValueLayout.JAVA_LONG, address, next);
                    return value;
                });
                answer(ATOMIC, id, Ibv.WcStatus.SUCCESS);
                answer.putLong(old);
            }
            flushAnswer();
        }

        private void answer(byte kind, int id, Ibv.WcStatus status) {
            answer.clear();
            answer.put(kind).order(java.nio.ByteOrder.BIG_ENDIAN).putInt(id).putInt(status.ordinal())
                    .order(java.nio.ByteOrder.nativeOrder());
        }

        private void flushAnswer() throws IOException {
            answer.flip();
            writeFully(channel, answer);
        }
    }

    /**
     * Closes the sockets and waits for the wire's threads to end, as they read and write rings by
     * absolute address: unmapping under one would crash the JVM. Returns false if one is still
     * running after the wait, and then leaves the rings mapped (as the caller must leave its own).
     */
    boolean close() {
        for (Link link : links.values()) {
            link.down = true; // the owner no longer writes into the outbound rings
        }
        if (!wire.stop()) {
            System.err.println("btl/verbs: soft device port " + lid + ": its wire's rings stay mapped until the"
                    + " process exits");
            return false;
        }
        arena.close();
        return true;
    }
}
