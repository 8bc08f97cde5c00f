package org.jmca.coll.gm;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jmca.common.gm.GmEvent;
import org.jmca.common.gm.GmNic;
import org.jmca.common.gm.GmPort;
import org.jmca.common.gm.GmPriority;
import org.jmca.common.gm.GmStatus;
import org.jmca.mca.McaException;

/**
 * The GM level of coll/gm (the CollGM paper's section 3.2): one port of its own for all of the
 * process's communicators, receive buffers of two size classes kept provided, registered send
 * buffers and staging blocks, the send queue of each node, and the sorting of arrivals to the
 * calls they belong to. A message for a call this process has not begun yet is copied and kept
 * until the call begins, so its buffer goes back to GM at once.
 *
 * <p>A peer's port may open after this one: a send to a port never seen open is sent again until
 * it arrives or {@code coll_gm_connect_timeout} passes, one at a time so the order holds. A port
 * that was open and has closed means its process ended: the calls in flight fail, naming it.
 *
 * <p>Single-threaded like a GM port: callers hold the engine's monitor.
 */
final class GmEngine implements AutoCloseable {
    /** The port coll/gm opens (btl/gm has 2; GM reserves 0 and 1). */
    static final int PORT = 3;
    static final int SMALL_CLASS = 13;
    /**
     * Bytes of messages for calls not begun here kept at most: a peer that far ahead, or a node
     * that sends messages of no call, fails the calls rather than fill the heap.
     */
    static final long EARLY_LIMIT = 64L << 20;

    private final GmSettings settings;
    private final GmPort port;
    private final Arena arena = Arena.ofShared();
    private final int largeClass;
    private final ArrayDeque<MemorySegment> smallSendBuffers = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> largeSendBuffers = new ArrayDeque<>();
    /** Send buffers for control messages alone, so data waiting for the peer never starves them. */
    private final ArrayDeque<MemorySegment> controlSendBuffers = new ArrayDeque<>();
    private final ArrayDeque<MemorySegment> stagingBlocks = new ArrayDeque<>();
    private final Map<Long, CallChannel> channels = new HashMap<>();
    /** Copies of messages for calls not begun here yet, by call, with the GM node that sent each. */
    private final Map<Long, List<Early>> early = new HashMap<>();
    private long earlyBytes;
    /** At most this many bytes of messages for calls not begun here are kept (tests lower it). */
    long earlyLimit = EARLY_LIMIT;
    private final Map<Integer, NodeQueue> nodes = new HashMap<>();
    private final Map<Integer, Integer> jobRankOfNode = new HashMap<>();
    /** Control messages waiting for a small send buffer, in order. */
    private final ArrayDeque<Outgoing> controls = new ArrayDeque<>();
    private final String description;
    private RuntimeException failure;
    private boolean closing;

    /** A message or directed send for one node; {@code remote} is -1 for a message. */
    record Outgoing(int node, MemorySegment data, int sizeClass, GmPriority priority, long remote, boolean control,
                    Runnable sent) {
    }

    /** A message for a call not begun here yet, from GM node {@code node}. */
    private record Early(int node, MemorySegment message) {
    }

    /** The sends for one node, in order; one at a time until its port has been seen open. */
    private static final class NodeQueue {
        final ArrayDeque<Outgoing> queue = new ArrayDeque<>();
        boolean seen;
        int inFlight;
        long retryAt;
        long firstFailure;
    }

    GmEngine(GmNic nic, GmSettings settings) {
        this.settings = settings;
        // Control messages travel at high priority into buffers of their own: an acknowledgement
        // must never wait for a low-priority buffer that a broadcast holds until it is acknowledged.
        int receives = 2 * settings.smallBuffers() + settings.largeBuffers();
        this.port = nic.open(PORT, settings.sendTokens(), receives);
        this.description = nic.description() + ", port " + PORT;
        this.largeClass = GmPort.minSizeForLength(Wire.HEADER + settings.eagerLimit());
        long small = 1L << SMALL_CLASS;
        long large = 1L << largeClass;
        MemorySegment slab = registered(small * (3 * settings.smallBuffers() + settings.smallBuffers())
                + large * (settings.largeBuffers() + settings.largeBuffers()));
        long at = 0;
        for (int i = 0; i < receives; i++) {
            boolean isLarge = i >= 2 * settings.smallBuffers();
            long bytes = isLarge ? large : small;
            MemorySegment buffer = slab.asSlice(at, bytes);
            at += bytes;
            port.provideReceiveBuffer(buffer, isLarge ? largeClass : SMALL_CLASS,
                    i < settings.smallBuffers() ? GmPriority.HIGH : GmPriority.LOW, i);
        }
        for (int i = 0; i < settings.smallBuffers(); i++, at += small) {
            smallSendBuffers.add(slab.asSlice(at, small));
        }
        for (int i = 0; i < settings.smallBuffers(); i++, at += small) {
            controlSendBuffers.add(slab.asSlice(at, small));
        }
        for (int i = 0; i < settings.largeBuffers(); i++, at += large) {
            largeSendBuffers.add(slab.asSlice(at, large));
        }
        if (settings.pipelineBlock() > 0) {
            MemorySegment staging = registered(settings.pipelineBlock() * Wire.PIPELINE_DEPTH * 2);
            for (int i = 0; i < Wire.PIPELINE_DEPTH * 2; i++) {
                stagingBlocks.add(staging.asSlice(i * settings.pipelineBlock(), settings.pipelineBlock()));
            }
        }
    }

    private MemorySegment registered(long bytes) {
        MemorySegment memory = arena.allocate(Math.max(bytes, 64), 4096);
        port.register(memory);
        return memory;
    }

    GmSettings settings() {
        return settings;
    }

    GmPort port() {
        return port;
    }

    String description() {
        return description;
    }

    /** Learns a communicator's nodes, to name their job ranks in errors. */
    synchronized void learn(GmComm comm) {
        for (int r = 0; r < comm.size(); r++) {
            jobRankOfNode.putIfAbsent(comm.nodes()[r], comm.jobRanks()[r]);
        }
    }

    /** Begins the part of call {@code tag} on communicator {@code comm} that this process plays. */
    CallChannel open(GmComm comm, int tag) {
        CallChannel channel = new CallChannel(this, comm, tag);
        long key = key(comm.context(), tag);
        if (channels.putIfAbsent(key, channel) != null) {
            throw new IllegalStateException("call " + tag + " on " + comm.name() + " is already in flight");
        }
        List<Early> waiting = early.remove(key);
        if (waiting != null) {
            for (Early message : waiting) {
                earlyBytes -= message.message().byteSize();
                channel.arrive(message.message(), null, message.node());
            }
        }
        return channel;
    }

    void close(CallChannel channel) {
        channels.remove(key(channel.comm().context(), channel.tag()));
    }

    private static long key(int context, int tag) {
        return (long) context << 32 | (tag & 0xFFFF_FFFFL);
    }

    /**
     * Moves the port on: runs send callbacks, sorts arrivals to their calls, sends what waits.
     * Throws the failure of a peer's port, once one is known.
     */
    int progress() {
        checkFailure();
        int events = 0;
        for (; events < 64; events++) {
            GmEvent event = port.receive();
            if (!(event instanceof GmEvent.Received received)) {
                break;
            }
            arrived(received);
        }
        for (CallChannel channel : channels.values()) { // advancing never opens or closes a call
            channel.advance();
        }
        pump();
        checkFailure();
        return events;
    }

    /**
     * A turn of the process's progress engine: moves the port on between coll/gm's calls (a
     * rank's eager sends complete for it before they leave). A failure waits for the next call.
     */
    synchronized int progressBetweenCalls() {
        try {
            return failure == null ? progress() : 0;
        } catch (RuntimeException e) {
            return 0;
        }
    }

    private void checkFailure() {
        if (failure != null) {
            throw failure;
        }
    }

    private void arrived(GmEvent.Received received) {
        Buffer buffer = new Buffer(received.buffer(), received.size(), received.priority(), received.tag());
        int node = received.senderNode();
        if (received.length() < Wire.HEADER) {
            malformed(node, "it has " + received.length() + " bytes, less than coll/gm's header of " + Wire.HEADER);
            give(buffer);
            return;
        }
        MemorySegment message = received.buffer().asSlice(0, received.length());
        long key = key(Wire.context(message), Wire.tag(message));
        CallChannel channel = channels.get(key);
        if (channel != null) {
            if (!channel.arrive(message, buffer, node)) {
                give(buffer);
            }
            return;
        }
        if (Wire.kind(message) != Wire.ACK) { // an acknowledgement for a call that has ended matters no more
            if (earlyBytes + message.byteSize() > earlyLimit) {
                fail("coll/gm: " + who(node) + " sent more than " + earlyLimit + " bytes of messages for collective"
                        + " calls not begun here (the last for context " + Wire.context(message) + ", call tag "
                        + Wire.tag(message) + "): a rank that many calls ahead, or messages of no call of this job");
            } else {
                earlyBytes += message.byteSize();
                early.computeIfAbsent(key, k -> new ArrayList<>()).add(new Early(node, copy(message)));
            }
        }
        give(buffer);
    }

    /**
     * A message no peer of coll/gm sends (a header that says what is not so): the calls fail,
     * naming the node that sent it, as when a peer's process ends.
     */
    void malformed(int node, String why) {
        fail("coll/gm: a malformed message from " + who(node) + ": " + why);
    }

    /** The job rank and GM node of {@code node}, as far as this process knows it. */
    private String who(int node) {
        Integer rank = jobRankOfNode.get(node);
        return rank == null ? "GM node " + node + " (of no communicator here)" : "job rank " + rank + " (GM node "
                + node + ")";
    }

    /** For tests: the bytes of the messages kept for calls not begun here. */
    synchronized long earlyBytes() {
        return earlyBytes;
    }

    /** A receive buffer holding a message, to be given back to GM once its message is used. */
    record Buffer(MemorySegment memory, int sizeClass, GmPriority priority, int gmTag) {
    }

    void give(Buffer buffer) {
        port.provideReceiveBuffer(buffer.memory(), buffer.sizeClass(), buffer.priority(), buffer.gmTag());
    }

    static MemorySegment copy(MemorySegment message) {
        return MemorySegment.ofArray(new long[(int) ((message.byteSize() + 7) / 8)]).asSlice(0, message.byteSize())
                .copyFrom(message);
    }

    // ---- send buffers and staging -----------------------------------------------------------

    /** A registered send buffer for a message of {@code bytes} bytes, or null while none is free. */
    MemorySegment takeSendBuffer(long bytes) {
        if (bytes <= GmPort.maxLengthForSize(SMALL_CLASS)) {
            MemorySegment buffer = smallSendBuffers.poll();
            return buffer != null ? buffer : largeSendBuffers.poll();
        }
        return largeSendBuffers.poll();
    }

    void giveSendBuffer(MemorySegment buffer) {
        (buffer.byteSize() == 1L << SMALL_CLASS ? smallSendBuffers : largeSendBuffers).add(buffer);
    }

    /** The size class a message of {@code bytes} bytes goes in. */
    int sizeClassOf(long bytes) {
        return bytes <= GmPort.maxLengthForSize(SMALL_CLASS) ? SMALL_CLASS : largeClass;
    }

    /**
     * Registered memory of {@code bytes} bytes to stage heap data through, or null while none is
     * free: a pipeline block from the pool, or (without a pipeline) memory registered for the one
     * transfer, which {@link #giveStaging} frees.
     */
    MemorySegment takeStaging(long bytes) {
        if (bytes <= settings.pipelineBlock()) {
            return stagingBlocks.poll();
        }
        MemorySegment memory = Arena.ofAuto().allocate(bytes, 4096);
        port.register(memory);
        return memory;
    }

    void giveStaging(MemorySegment memory) {
        if (memory.byteSize() == settings.pipelineBlock()) {
            stagingBlocks.add(memory);
        } else {
            port.deregister(memory); // its memory goes when it is unreachable
        }
    }

    // ---- sending --------------------------------------------------------------------------------

    /** Queues a message (registered, header included) for {@code node}; {@code sent} runs once it is in a buffer there. */
    void send(int node, MemorySegment message, Runnable sent) {
        enqueue(new Outgoing(node, message, sizeClassOf(message.byteSize()), GmPriority.LOW, -1, false, sent));
    }

    /** Queues a directed send of registered {@code source} into {@code node}'s memory at {@code remote}. */
    void directedSend(int node, MemorySegment source, long remote, Runnable sent) {
        enqueue(new Outgoing(node, source, 0, GmPriority.LOW, remote, false, sent));
    }

    /**
     * Queues a control message (a header alone) at high priority, ahead of the data: it waits for
     * a small send buffer if none is free, and its loss to a port that has closed is no failure.
     */
    void sendControl(int node, MemorySegment header) {
        controls.add(new Outgoing(node, copy(header), SMALL_CLASS, GmPriority.HIGH, -1, true, null));
        pump();
    }

    /**
     * A control message that must follow the data sent before it (a FIN behind its directed
     * sends), so at low priority; {@code sent} runs once it is in a buffer at {@code node}.
     */
    void sendInOrder(int node, MemorySegment header, Runnable sent) {
        controls.add(new Outgoing(node, copy(header), SMALL_CLASS, GmPriority.LOW, -1, false, sent));
        pump();
    }

    private void enqueue(Outgoing outgoing) {
        nodes.computeIfAbsent(outgoing.node(), n -> new NodeQueue()).queue.add(outgoing);
        pump();
    }

    private void pump() {
        while (!controls.isEmpty()) {
            MemorySegment buffer = controlSendBuffers.poll();
            if (buffer == null) {
                break;
            }
            Outgoing control = controls.poll();
            MemorySegment message = buffer.asSlice(0, control.data().byteSize()).copyFrom(control.data());
            Runnable after = control.sent();
            nodes.computeIfAbsent(control.node(), n -> new NodeQueue()).queue.add(new Outgoing(control.node(),
                    message, SMALL_CLASS, control.priority(), -1, control.control(), () -> {
                        controlSendBuffers.add(buffer);
                        if (after != null) {
                            after.run();
                        }
                    }));
        }
        long now = 0;
        for (Map.Entry<Integer, NodeQueue> entry : nodes.entrySet()) {
            NodeQueue queue = entry.getValue();
            while (!queue.queue.isEmpty() && port.sendTokens() > 0 && (queue.seen || queue.inFlight == 0)) {
                if (queue.retryAt != 0) {
                    now = now == 0 ? System.nanoTime() : now;
                    if (now < queue.retryAt) {
                        break;
                    }
                    queue.retryAt = 0;
                }
                Outgoing outgoing = queue.queue.poll();
                queue.inFlight++;
                int node = entry.getKey();
                GmPort.SendCallback callback = status -> sent(node, queue, outgoing, status);
                if (outgoing.remote() < 0) {
                    port.send(outgoing.data(), outgoing.sizeClass(), outgoing.priority(), node, PORT, callback);
                } else {
                    port.directedSend(outgoing.data(), outgoing.remote(), GmPriority.LOW, node, PORT, callback);
                }
            }
        }
    }

    private void sent(int node, NodeQueue queue, Outgoing outgoing, GmStatus status) {
        queue.inFlight--;
        if (status == GmStatus.SUCCESS) {
            queue.seen = true;
            queue.firstFailure = 0;
        } else if (status == GmStatus.SEND_TARGET_PORT_CLOSED && !queue.seen && !outgoing.control() && !closing) {
            // A control message answers a port that was open; only data may find one not open yet.
            long now = System.nanoTime();
            queue.firstFailure = queue.firstFailure == 0 ? now : queue.firstFailure;
            if (now - queue.firstFailure < settings.connectTimeoutNanos()) {
                queue.queue.addFirst(outgoing); // not open yet: again, before anything behind it
                queue.retryAt = now + 100_000;
                return;
            }
            fail("coll/gm: job rank " + jobRankOfNode.get(node) + " (GM node " + node + ") did not open its GM port "
                    + PORT + " within coll_gm_connect_timeout=" + settings.connectTimeoutNanos() / 1_000_000 + " ms");
        } else if (!outgoing.control()) {
            fail(status == GmStatus.SEND_REJECTED
                    ? "coll/gm: job rank " + jobRankOfNode.get(node) + " refused a directed send into its memory"
                    : "coll/gm: the GM port of job rank " + jobRankOfNode.get(node) + " (GM node " + node
                    + ") has closed: its process ended during a collective");
        }
        if (outgoing.sent() != null) {
            outgoing.sent().run();
        }
    }

    private void fail(String message) {
        if (failure == null) {
            failure = new McaException(message);
        }
    }

    /**
     * Lets what was sent finish leaving (an eager send completes for its caller once copied, so
     * a rank may end its last call while the message is still queued here), then closes the port.
     */
    @Override
    public synchronized void close() {
        if (closing) {
            return;
        }
        closing = true;
        long deadline = System.nanoTime() + settings.connectTimeoutNanos();
        while ((port.sendTokens() < settings.sendTokens() || nodes.values().stream().anyMatch(q -> !q.queue.isEmpty())
                || !controls.isEmpty()) && failure == null && System.nanoTime() < deadline) {
            while (port.receive() instanceof GmEvent.Received ignored) {
                // nothing more is read: every call has ended
            }
            pump();
            Thread.onSpinWait();
        }
        port.close();
        arena.close();
    }

    @Override
    public String toString() {
        return "coll/gm on " + description;
    }
}
