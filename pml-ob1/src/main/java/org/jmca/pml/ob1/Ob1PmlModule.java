package org.jmca.pml.ob1;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.agrona.collections.Int2ObjectHashMap;
import org.agrona.collections.Long2ObjectHashMap;
import org.jmca.mca.BulkCopy;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.Bridge;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlMessage;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.trace.RendezvousAnnounced;
import org.jmca.mca.trace.RendezvousRead;

/**
 * ob1's point-to-point module.
 *
 * <p>Protocols ({@link Ob1Header} shows the bytes):
 * <ul>
 *   <li><b>eager</b>: a standard send that fits the route's eager limit goes as one MATCH
 *       fragment and completes once the BTL has taken it;</li>
 *   <li><b>rendezvous</b>: otherwise (and for every synchronous send) a RNDV fragment carries the
 *       first bytes; when the receiver matches it answers with an ACK naming how many bytes it
 *       wants, and the sender streams the rest as FRAG fragments of the BTL's max send size.</li>
 *   <li><b>RGET</b>: a RNDV from native memory over a BTL that can GET carries the buffer's
 *       address; the receiver may read the whole message itself and answer FIN. It does when the
 *       BTL prefers GET at that size, and always on the progress engine's helper thread: then the
 *       application is computing, and one read by the helper frees both sides (the asynchronous
 *       rendezvous). After sending a RNDV the sender rings the peer's doorbell, which wakes the
 *       peer's helper if the peer armed it.</li>
 *   <li><b>RPUT</b>: otherwise, a receiver whose buffer is native, over a BTL that can PUT,
 *       puts the buffer's address in its ACK; the sender writes the rest into it (from any
 *       memory: the BTL copies heap data through registered blocks) and answers PUT_FIN. If
 *       the BTL cannot write now the sender streams fragments as usual.</li>
 * </ul>
 * Work that a BTL refuses (back-pressure) waits in a per-peer FIFO, so one sender's fragments
 * leave in order; the receiver checks per-peer sequence numbers all the same and holds early
 * arrivals, so the order survives several transports.
 *
 * <p>Single-threaded: called by the thread that owns progress, including the BTLs' upcalls (the
 * application thread, or the helper of asynchronous progress; the engine hands ownership over).
 */
final class Ob1PmlModule implements PmlModule {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);
    /**
     * The address an RGET or RPUT announces for exposed heap memory, which has none: a BTL with
     * {@link org.jmca.mca.btl.BtlProperties.Flag#HEAP} finds the memory by its key alone; the
     * address only has to be non-zero (zero means "not exposed").
     */
    private static final long HEAP_ADDRESS = -1;

    private final int rank;
    /** The job's ranks, then the processes of bridged jobs ({@link #addBridgedPeers}). */
    private int peerCount;
    /** This process's index in each peer's numbering, which the headers it sends carry: its rank, for the job. */
    private int[] selfAt;
    /** The BTLs some peer is routed through, polled on every progress turn. */
    private BtlModule[] btls;
    private final List<BtlModule> allBtls;
    private Route[] routes;
    private final Int2ObjectHashMap<MatchContext> contexts = new Int2ObjectHashMap<>();
    private final Long2ObjectHashMap<Ob1SendRequest> awaitingAck = new Long2ObjectHashMap<>();
    private final Long2ObjectHashMap<Ob1RecvRequest> awaitingFrags = new Long2ObjectHashMap<>();
    private ArrayDeque<Work>[] peerQueues;
    private final ArrayDeque<Integer> peersWithWork = new ArrayDeque<>();
    /** Scratch headers, one per kind, reused for every fragment (the BTL copies them). */
    private final MemorySegment rndvHeader = MemorySegment.ofArray(new byte[Ob1Header.RNDV_LENGTH]);
    private final MemorySegment ackHeader = MemorySegment.ofArray(new byte[Ob1Header.ACK_LENGTH]);
    private final MemorySegment fragHeader = MemorySegment.ofArray(new byte[Ob1Header.FRAG_LENGTH]);
    private final MemorySegment finHeader = MemorySegment.ofArray(new byte[Ob1Header.FIN_LENGTH]);
    private final ProgressEngine progress;
    private final ProgressEngine.Registration registration;
    private long nextRequestId = 1;
    /** The context used last: most traffic stays in one communicator, so this spares the map lookup. */
    private MatchContext lastContext;
    /** Counters (performance variables), written by the thread that owns progress. */
    private long rgets;
    private long rputs;
    private long asyncRendezvous;
    private long notificationsSent;

    /** Something to send to a peer; {@link #advance()} returns false when a BTL pushed back. */
    private interface Work {
        boolean advance();
    }

    @SuppressWarnings("unchecked")
    Ob1PmlModule(PmlEnvironment environment) {
        this.rank = environment.rank();
        this.peerCount = environment.peers().size();
        this.selfAt = new int[peerCount];
        Arrays.fill(selfAt, rank);
        this.allBtls = List.copyOf(environment.btls());
        this.routes = computeRoutes(environment.peers(), environment.btls());
        // Only the BTLs some peer is routed through can carry traffic; the others need no polling
        // (a peer routes to this process by the same rule, so it never uses them either).
        this.btls = environment.btls().stream()
                .filter(btl -> Arrays.stream(routes).anyMatch(route -> route.btl() == btl))
                .toArray(BtlModule[]::new);
        this.peerQueues = new ArrayDeque[peerCount];
        for (int i = 0; i < peerCount; i++) {
            peerQueues[i] = new ArrayDeque<>();
        }
        environment.btls().forEach(btl -> btl.setReceiver(this::onFragment));
        this.lastContext = new MatchContext(0, peerCount);
        contexts.put(0, lastContext);
        this.progress = environment.progress();
        this.registration = progress.register(this::progress, ProgressEngine.Priority.HIGH);
    }

    private static Route[] computeRoutes(List<Peer> peers, List<BtlModule> btls) {
        List<List<BtlEndpoint>> candidates = new ArrayList<>();
        peers.forEach(p -> candidates.add(new ArrayList<>()));
        for (BtlModule btl : btls) {
            List<BtlEndpoint> endpoints = btl.addPeers(peers);
            for (int i = 0; i < peers.size(); i++) {
                if (endpoints.get(i) != null) {
                    candidates.get(i).add(endpoints.get(i));
                }
            }
        }
        Route[] routes = new Route[peers.size()];
        List<String> unreachable = new ArrayList<>();
        for (int i = 0; i < peers.size(); i++) {
            routes[i] = Route.choose(candidates.get(i)).orElse(null);
            if (routes[i] == null) {
                unreachable.add(peers.get(i).rank() + " (" + peers.get(i).hostname() + ")");
            }
        }
        if (!unreachable.isEmpty()) {
            throw new McaException("pml/ob1: no selected BTL reaches rank(s) " + String.join(", ", unreachable)
                    + "; selected BTLs: " + String.join(", ", btls.stream().map(BtlModule::componentName).toList())
                    + " (add tcp to the btl parameter, or check btl_tcp_if_include)");
        }
        return routes;
    }

    /** One line per peer: which BTL its messages take. */
    List<String> describeRoutes() {
        List<String> lines = new ArrayList<>();
        for (int peer = 0; peer < routes.length; peer++) {
            lines.add("pml/ob1: rank " + rank + " reaches rank " + peer + " through btl/" + routes[peer].btl().componentName()
                    + " (eager limit " + routes[peer].eagerLimit() + ", fragments of " + routes[peer].maxSendSize() + ")");
        }
        return lines;
    }

    private MatchContext context(int id) {
        MatchContext context = lastContext;
        if (context.id == id) {
            return context;
        }
        context = contexts.get(id);
        if (context == null) {
            context = new MatchContext(id, peerCount);
            contexts.put(id, context);
        }
        lastContext = context;
        return context;
    }

    // ---- sending -------------------------------------------------------------------------

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int tag, int context, SendMode mode) {
        checkRank(dest);
        int seq = context(context).nextSendSeq(dest);
        Route route = routes[dest];
        // The common case allocates nothing: an eager message that the BTL takes at once.
        if (mode == SendMode.STANDARD && Ob1Header.MATCH_LENGTH + data.byteSize() <= route.eagerLimit()
                && peerQueues[dest].isEmpty()
                && route.btl().send(route.endpoint(), Ob1Header.TAG_MATCH, Ob1Header.matchWord0(context, selfAt[dest]),
                        Ob1Header.matchWord1(tag, seq), data)) {
            return Ob1SendRequest.SENT;
        }
        Ob1SendRequest request = new Ob1SendRequest(data, dest, tag, context, seq, mode, route);
        if (!peerQueues[dest].isEmpty() || !startSend(request)) {
            queue(dest, () -> startSend(request));
        }
        return request;
    }

    private boolean startSend(Ob1SendRequest request) {
        Route route = request.route;
        if (request.eager()) {
            if (!route.btl().send(route.endpoint(), Ob1Header.TAG_MATCH, Ob1Header.matchWord0(request.context, selfAt[request.dest]),
                    Ob1Header.matchWord1(request.tag, request.seq), request.data)) {
                return false;
            }
            request.complete();
            return true;
        }
        long first = Math.min(request.data.byteSize(),
                Math.min(route.eagerLimit(), route.maxSendSize()) - Ob1Header.RNDV_LENGTH);
        long id = nextRequestId++;
        // Data that the route's BTL can read from the receiver's side may go by RGET: one copy.
        if (route.reaches(request.data) && route.canGet() && request.exposedKey == BtlModule.NOT_EXPOSED) {
            request.exposedKey = route.btl().exposeForGet(request.data);
        }
        long address = request.exposedKey == BtlModule.NOT_EXPOSED ? 0
                : request.data.isNative() ? request.data.address() : HEAP_ADDRESS;
        MemorySegment h = Ob1Header.writeRndv(rndvHeader, request.context, selfAt[request.dest], request.tag, request.seq,
                request.data.byteSize(), id, address, request.exposedKey);
        if (!route.btl().send(route.endpoint(), Ob1Header.TAG_RNDV, h, request.data.asSlice(0, first))) {
            nextRequestId--;
            return false;
        }
        request.sent = first;
        awaitingAck.put(id, request);
        RendezvousAnnounced event = new RendezvousAnnounced();
        long announced = event.isEnabled() ? System.nanoTime() : 0; // before the ring, which may preempt us
        boolean rang = route.btl().notifyPeer(route.endpoint());
        if (rang) {
            notificationsSent++;
        }
        if (event.isEnabled()) {
            event.nanos = announced;
            event.peer = request.dest;
            event.bytes = request.data.byteSize();
            event.rang = rang;
            event.commit();
        }
        return true;
    }

    private boolean streamFragments(Ob1SendRequest request) {
        Route route = request.route;
        long chunk = route.maxSendSize() - Ob1Header.FRAG_LENGTH;
        while (request.sent < request.wanted) {
            long length = Math.min(chunk, request.wanted - request.sent);
            MemorySegment h = Ob1Header.writeFrag(fragHeader, request.recvId, request.sent);
            if (!route.btl().send(route.endpoint(), Ob1Header.TAG_FRAG, h, request.data.asSlice(request.sent, length))) {
                return false;
            }
            request.sent += length;
        }
        completeRendezvous(request);
        return true;
    }

    /** A rendezvous send is done: the receiver has everything, so what was exposed for its GET may go. */
    private void completeRendezvous(Ob1SendRequest request) {
        if (request.exposedKey != BtlModule.NOT_EXPOSED) {
            request.route.btl().unexpose(request.exposedKey);
            request.exposedKey = BtlModule.NOT_EXPOSED;
        }
        request.complete();
    }

    private void sendFin(int dest, long sendId) {
        enqueue(dest, () -> {
            Route route = routes[dest];
            return route.btl().send(route.endpoint(), Ob1Header.TAG_FIN, Ob1Header.writeFin(finHeader, sendId), EMPTY);
        });
    }

    private void sendAck(int dest, long sendId, long recvId, long wanted, long putAddress, long putKey) {
        enqueue(dest, () -> {
            Route route = routes[dest];
            return route.btl().send(route.endpoint(), Ob1Header.TAG_ACK,
                    Ob1Header.writeAck(ackHeader, sendId, recvId, wanted, putAddress, putKey), EMPTY);
        });
    }

    /**
     * RPUT: writes what the receiver still wants straight into its buffer, then tells it with
     * PUT_FIN; streams fragments instead if the BTL cannot write now.
     */
    private boolean putRendezvous(Ob1SendRequest request, long address, long key) {
        Route route = request.route;
        if (request.sent < request.wanted) {
            if (!route.btl().put(route.endpoint(), request.data.asSlice(request.sent, request.wanted - request.sent),
                    address + request.sent, key)) {
                return streamFragments(request);
            }
            request.sent = request.wanted;
            rputs++;
        }
        if (!route.btl().send(route.endpoint(), Ob1Header.TAG_PUT_FIN, Ob1Header.writeFin(finHeader, request.recvId),
                EMPTY)) {
            return false;
        }
        completeRendezvous(request);
        return true;
    }

    /** Runs the work now if the peer's queue is empty, else queues it behind what waits. */
    private void enqueue(int dest, Work work) {
        if (!peerQueues[dest].isEmpty() || !work.advance()) {
            queue(dest, work);
        }
    }

    /** Puts work behind whatever waits for the peer; progress runs it in order. */
    private void queue(int dest, Work work) {
        ArrayDeque<Work> queue = peerQueues[dest];
        if (queue.isEmpty()) {
            peersWithWork.addLast(dest);
        }
        queue.addLast(work);
    }

    private int drainQueues() {
        int done = 0;
        for (int n = peersWithWork.size(); n > 0; n--) {
            int peer = peersWithWork.pollFirst();
            ArrayDeque<Work> queue = peerQueues[peer];
            while (!queue.isEmpty() && queue.peekFirst().advance()) {
                queue.pollFirst();
                done++;
            }
            if (!queue.isEmpty()) {
                peersWithWork.addLast(peer);
            }
        }
        return done;
    }

    // ---- receiving -----------------------------------------------------------------------

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int tag, int context) {
        if (source != ANY_SOURCE) {
            checkRank(source);
        }
        MatchContext matchContext = context(context);
        Ob1RecvRequest request = new Ob1RecvRequest(buffer, source, tag, matchContext);
        MatchContext.Unexpected message = matchContext.findUnexpected(request, true);
        if (message == null) {
            matchContext.post(request);
        } else {
            deliver(request, message.kind(), message.source(), message.tag(), message.total(), message.sendId(),
                    message.address(), message.key(), message.payload(), 0, message.payload().byteSize());
        }
        return request;
    }

    @Override
    public PmlStatus iprobe(int source, int tag, int context) {
        MatchContext.Unexpected message = context(context).findUnexpected(
                new Ob1RecvRequest(EMPTY, source, tag, null), false);
        return message == null ? null : new PmlStatus(message.source(), message.tag(), message.total(), false, false);
    }

    /** A message a matched probe took: its place in the unexpected queue, and its context. */
    private record TakenMessage(MatchContext.Unexpected message, MatchContext context) implements PmlMessage {
        @Override
        public PmlStatus status() {
            return new PmlStatus(message.source(), message.tag(), message.total(), false, false);
        }
    }

    @Override
    public PmlMessage improbe(int source, int tag, int context) {
        if (source != ANY_SOURCE) {
            checkRank(source);
        }
        MatchContext matchContext = context(context);
        MatchContext.Unexpected message = matchContext.findUnexpected(new Ob1RecvRequest(EMPTY, source, tag, null),
                true);
        return message == null ? null : new TakenMessage(message, matchContext);
    }

    @Override
    public PmlRequest imrecv(PmlMessage taken, MemorySegment buffer) {
        if (!(taken instanceof TakenMessage(MatchContext.Unexpected message, MatchContext context))) {
            throw new McaException("pml/ob1: a message of another PML cannot be received here");
        }
        Ob1RecvRequest request = new Ob1RecvRequest(buffer, message.source(), message.tag(), context);
        deliver(request, message.kind(), message.source(), message.tag(), message.total(), message.sendId(),
                message.address(), message.key(), message.payload(), 0, message.payload().byteSize());
        return request;
    }

    /**
     * A fragment from a BTL. Its header's fields are checked before they are used (a header
     * longer than the fragment, a source or offset out of range, a negative length): a corrupt
     * fragment is an MPI error naming its sender, never an index out of bounds or a read past it.
     */
    private void onFragment(BtlEndpoint from, byte kind, MemorySegment memory, long at, long length) {
        switch (kind) {
            case Ob1Header.TAG_MATCH -> onMatchable(from, kind, memory, at, atLeast(Ob1Header.MATCH_LENGTH, from, kind, length));
            case Ob1Header.TAG_RNDV -> onMatchable(from, kind, memory, at, atLeast(Ob1Header.RNDV_LENGTH, from, kind, length));
            case Ob1Header.TAG_ACK -> onAck(from, memory, at, atLeast(Ob1Header.ACK_LENGTH, from, kind, length));
            case Ob1Header.TAG_FRAG -> onFrag(from, memory, at, atLeast(Ob1Header.FRAG_LENGTH, from, kind, length));
            case Ob1Header.TAG_FIN -> {
                atLeast(Ob1Header.FIN_LENGTH, from, kind, length);
                onFin(memory, at);
            }
            case Ob1Header.TAG_PUT_FIN -> {
                atLeast(Ob1Header.FIN_LENGTH, from, kind, length);
                onPutFin(memory, at);
            }
            default -> throw new McaException("pml/ob1: rank " + rank + " got a fragment with unknown tag " + kind
                    + " from rank " + from.rank());
        }
    }

    private long atLeast(int headerLength, BtlEndpoint from, byte kind, long length) {
        if (length < headerLength) {
            throw corrupt(from, kind, length, "shorter than its " + headerLength + "-byte header");
        }
        return length;
    }

    private McaException corrupt(BtlEndpoint from, byte kind, long length, String why) {
        return new McaException("pml/ob1: rank " + rank + " got a corrupt fragment (tag " + kind + ", " + length
                + " bytes) from rank " + from.rank() + ": " + why);
    }

    private void onMatchable(BtlEndpoint from, byte kind, MemorySegment memory, long at, long length) {
        long word0 = Ob1Header.word0(memory, at);
        long word1 = Ob1Header.word1(memory, at);
        int source = Ob1Header.low(word0);
        if (source < 0 || source >= routes.length) {
            throw corrupt(from, kind, length, "its source " + source + " is not one of the " + routes.length + " peers");
        }
        if (kind == Ob1Header.TAG_RNDV && Ob1Header.total(memory, at) < 0) {
            throw corrupt(from, kind, length, "a message of " + Ob1Header.total(memory, at) + " bytes");
        }
        MatchContext context = context(Ob1Header.high(word0));
        int seq = Ob1Header.low(word1);
        if (!context.takeTurn(source, seq)) {
            context.hold(source, seq, kind, memory.asSlice(at, length));
            return;
        }
        match(context, kind, source, Ob1Header.high(word1), memory, at, length);
        for (MatchContext.Held held = context.nextHeld(source); held != null; held = context.nextHeld(source)) {
            MemorySegment fragment = held.fragment();
            match(context, held.kind(), source, Ob1Header.high(Ob1Header.word1(fragment, 0)), fragment, 0,
                    fragment.byteSize());
        }
    }

    private void match(MatchContext context, byte kind, int source, int tag, MemorySegment memory, long at,
                       long length) {
        boolean eager = kind == Ob1Header.TAG_MATCH;
        int headerLength = eager ? Ob1Header.MATCH_LENGTH : Ob1Header.RNDV_LENGTH;
        long total = eager ? length - headerLength : Ob1Header.total(memory, at);
        long sendId = eager ? 0 : Ob1Header.sendId(memory, at);
        long address = eager ? 0 : Ob1Header.address(memory, at);
        long key = eager ? 0 : Ob1Header.key(memory, at);
        Ob1RecvRequest request = context.matchPosted(source, tag);
        if (request == null) {
            context.addUnexpected(kind, source, tag, total, sendId, address, key,
                    memory.asSlice(at + headerLength, length - headerLength));
        } else {
            deliver(request, kind, source, tag, total, sendId, address, key, memory, at + headerLength,
                    length - headerLength);
        }
    }

    /**
     * A receive met its message: copy the first bytes ({@code available} bytes of {@code carrier}
     * from {@code offset}); for a rendezvous, ask for the rest.
     */
    private void deliver(Ob1RecvRequest request, byte kind, int source, int tag, long total, long sendId, long address,
                         long key, MemorySegment carrier, long offset, long available) {
        request.matched(source, tag, total);
        Route route = routes[source];
        if (address != 0 && route.reaches(request.buffer)) {
            boolean onHelper = progress.onHelperThread();
            RendezvousRead event = new RendezvousRead();
            long start = event.isEnabled() ? System.nanoTime() : 0;
            if ((onHelper ? route.canGet() : route.btl().canGet(request.wanted))
                    && route.btl().get(route.endpoint(), address, key, request.buffer.asSlice(0, request.wanted))) {
                request.received = request.wanted;
                request.completeDelivered();
                sendFin(source, sendId);
                rgets++;
                if (onHelper) {
                    asyncRendezvous++;
                }
                if (event.isEnabled()) {
                    event.endNanos = System.nanoTime();
                    event.startNanos = start;
                    event.peer = source;
                    event.bytes = request.wanted;
                    event.onHelper = onHelper;
                    event.commit();
                }
                return;
            }
        }
        long length = Math.min(available, request.wanted);
        BulkCopy.copy(carrier, offset, request.buffer, 0, length);
        request.received = length;
        if (kind == Ob1Header.TAG_MATCH) {
            request.completeDelivered();
            return;
        }
        long recvId = 0;
        long putAddress = 0;
        if (request.received >= request.wanted) {
            request.completeDelivered();
        } else {
            recvId = nextRequestId++;
            awaitingFrags.put(recvId, request);
            // The sender's data could not be read from here: let it write the rest into the buffer.
            boolean onHelper = progress.onHelperThread();
            if (route.reaches(request.buffer) && (onHelper ? route.canPut() : route.btl().canPut(request.wanted))) {
                request.putKey = route.btl().exposeForPut(request.buffer.asSlice(0, request.wanted));
                putAddress = request.putKey == BtlModule.NOT_EXPOSED ? 0
                        : request.buffer.isNative() ? request.buffer.address() : HEAP_ADDRESS;
            }
        }
        sendAck(source, sendId, recvId, request.wanted, putAddress, request.putKey);
    }

    private void onAck(BtlEndpoint from, MemorySegment memory, long at, long length) {
        long sendId = Ob1Header.longField(memory, at, 0);
        long wanted = Ob1Header.longField(memory, at, 2);
        Ob1SendRequest request = awaitingAck.get(sendId);
        if (request == null) {
            throw new McaException("pml/ob1: rank " + rank + " got an ACK for unknown send request " + sendId);
        }
        if (wanted < 0 || wanted > request.data.byteSize()) {
            throw corrupt(from, Ob1Header.TAG_ACK, length, "it wants " + wanted + " bytes of a message of "
                    + request.data.byteSize());
        }
        awaitingAck.remove(sendId);
        request.recvId = Ob1Header.longField(memory, at, 1);
        request.wanted = wanted;
        long putAddress = Ob1Header.longField(memory, at, 3);
        long putKey = Ob1Header.longField(memory, at, 4);
        if (request.sent >= request.wanted) {
            completeRendezvous(request);
        } else if (putAddress != 0) {
            enqueue(request.dest, () -> putRendezvous(request, putAddress, putKey));
        } else {
            enqueue(request.dest, () -> streamFragments(request));
        }
    }

    private void onPutFin(MemorySegment memory, long at) {
        long recvId = Ob1Header.longField(memory, at, 0);
        Ob1RecvRequest request = awaitingFrags.remove(recvId);
        if (request == null) {
            throw new McaException("pml/ob1: rank " + rank + " got a PUT_FIN for unknown receive " + recvId);
        }
        request.received = request.wanted;
        completeReceive(request);
    }

    /** A rendezvous receive has every byte: what was exposed for the sender's PUT may go. */
    private void completeReceive(Ob1RecvRequest request) {
        if (request.putKey != BtlModule.NOT_EXPOSED) {
            routes[request.matchedSource].btl().unexpose(request.putKey);
            request.putKey = BtlModule.NOT_EXPOSED;
        }
        request.completeDelivered();
    }

    private void onFin(MemorySegment memory, long at) {
        long sendId = Ob1Header.longField(memory, at, 0);
        Ob1SendRequest request = awaitingAck.remove(sendId);
        if (request == null) {
            throw new McaException("pml/ob1: rank " + rank + " got a FIN for unknown send request " + sendId);
        }
        completeRendezvous(request);
    }

    private void onFrag(BtlEndpoint from, MemorySegment memory, long at, long fragmentLength) {
        long recvId = Ob1Header.longField(memory, at, 0);
        long offset = Ob1Header.longField(memory, at, 1);
        Ob1RecvRequest request = awaitingFrags.get(recvId);
        if (request == null) {
            throw new McaException("pml/ob1: rank " + rank + " got a fragment for unknown receive " + recvId);
        }
        if (offset < 0 || offset >= request.wanted) {
            throw corrupt(from, Ob1Header.TAG_FRAG, fragmentLength, "its offset " + offset + " is outside the "
                    + request.wanted + " bytes the receive wants");
        }
        long length = Math.min(fragmentLength - Ob1Header.FRAG_LENGTH, request.wanted - offset);
        BulkCopy.copy(memory, at + Ob1Header.FRAG_LENGTH, request.buffer, offset, length);
        request.received += length;
        if (request.received >= request.wanted) {
            awaitingFrags.remove(recvId);
            completeReceive(request);
        }
    }

    // ---- progress and lifecycle ----------------------------------------------------------

    private int progress() {
        int events = 0;
        for (BtlModule btl : btls) {
            events += btl.progress();
        }
        if (!peersWithWork.isEmpty()) {
            events += drainQueues();
        }
        return events;
    }

    @Override
    public boolean hasPendingSends() {
        if (!peersWithWork.isEmpty()) {
            return true;
        }
        for (BtlModule btl : btls) {
            if (btl.hasPendingSends()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public BtlEndpoint endpoint(int rank) {
        return rank >= 0 && rank < routes.length && routes[rank] != null ? routes[rank].endpoint() : null;
    }

    @Override
    public boolean hasPendingReceives() {
        if (!awaitingFrags.isEmpty()) {
            return true;
        }
        for (MatchContext context : contexts.values()) {
            if (context.hasPosted()) {
                return true;
            }
        }
        return false;
    }

    static final Counter RGET = new Counter("pml_ob1_rget", "rendezvous messages this process read itself (RGET)");
    static final Counter RPUT = new Counter("pml_ob1_rput",
            "rendezvous messages this process wrote into the receiver's buffer itself (RPUT)");
    static final Counter ASYNC_RENDEZVOUS = new Counter("pml_ob1_async_rendezvous",
            "rendezvous messages the helper thread read while the application computed");
    static final Counter NOTIFICATIONS_SENT = new Counter("pml_ob1_notifications_sent",
            "doorbells rung at peers after a rendezvous start");
    static final List<Counter> COUNTERS = List.of(RGET, RPUT, ASYNC_RENDEZVOUS, NOTIFICATIONS_SENT);

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return List.of(RGET.readBy(() -> rgets), RPUT.readBy(() -> rputs), ASYNC_RENDEZVOUS.readBy(() -> asyncRendezvous),
                NOTIFICATIONS_SENT.readBy(() -> notificationsSent));
    }

    @Override
    public void finalizeModule() {
        registration.close();
    }

    @Override
    public int peerCount() {
        return peerCount;
    }

    /**
     * Routes to another job's processes through the BTLs that can reach them (btl/tcp); they
     * become peers {@code peerCount ..}. Contexts made later match their messages; those made
     * before never see them (a bridge's communicators get new contexts).
     */
    @Override
    @SuppressWarnings("unchecked")
    public void addBridgedPeers(Bridge bridge) {
        int n = bridge.peers().size();
        for (int i = 0; i < n; i++) {
            if (bridge.peers().get(i).rank() != peerCount + i) {
                throw new IllegalArgumentException("bridged peer " + i + " has index " + bridge.peers().get(i).rank()
                        + ", not " + (peerCount + i));
            }
        }
        List<List<BtlEndpoint>> candidates = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            candidates.add(new ArrayList<>());
        }
        for (BtlModule btl : allBtls) {
            List<BtlEndpoint> endpoints = btl.addBridgedPeers(bridge);
            for (int i = 0; i < n; i++) {
                if (endpoints.get(i) != null) {
                    candidates.get(i).add(endpoints.get(i));
                }
            }
        }
        Route[] more = new Route[n];
        for (int i = 0; i < n; i++) {
            more[i] = Route.choose(candidates.get(i)).orElseThrow(() -> new McaException("pml/ob1: no selected BTL"
                    + " reaches the processes of the other job (they need btl/tcp on both sides)"));
        }
        routes = Arrays.copyOf(routes, peerCount + n);
        System.arraycopy(more, 0, routes, peerCount, n);
        peerQueues = Arrays.copyOf(peerQueues, peerCount + n);
        selfAt = Arrays.copyOf(selfAt, peerCount + n);
        for (int i = 0; i < n; i++) {
            peerQueues[peerCount + i] = new ArrayDeque<>();
            selfAt[peerCount + i] = bridge.selfIndexAtPeer()[i];
        }
        peerCount += n;
        Route[] all = routes;
        btls = allBtls.stream().filter(btl -> Arrays.stream(all).anyMatch(route -> route.btl() == btl))
                .toArray(BtlModule[]::new);
    }

    private void checkRank(int peer) {
        if (peer < 0 || peer >= peerCount) {
            throw new IllegalArgumentException("rank " + peer + " is outside the job's 0.." + (peerCount - 1));
        }
    }
}
