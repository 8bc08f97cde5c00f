package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.jmca.coll.mcast.Topology.Plan;
import org.jmca.coll.mcast.Topology.Role;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;

/**
 * The reliable multicast of one communicator at one rank: the broadcasts' numbers, what has been
 * delivered here, messages assembled from datagrams (early ones held), and, as root or co-root,
 * the window of sent messages kept until their acknowledgements come, retransmitted on timeout.
 * Only the engine's thread (the one that owns progress) calls it.
 */
final class McastChannel {
    /** A retransmission timeout never grows beyond this. */
    private static final long MAX_TIMEOUT = 200_000_000L;

    /** A sent message kept for retransmission until every rank it serves has acknowledged it. */
    static final class Slot {
        final int seq;
        final int root;
        final byte[] data;
        final int[] members;
        final int[] coroots;
        final List<PmlRequest> sends = new ArrayList<>();
        long lastSent;
        long timeout;
        /** Whether the ranks that did not acknowledge were asked since the message was last sent. */
        boolean asked;

        Slot(int seq, int root, byte[] data, int[] members, int[] coroots, long now, long timeout) {
            this.seq = seq;
            this.root = root;
            this.data = data;
            this.members = members;
            this.coroots = coroots;
            this.lastSent = now;
            this.timeout = timeout;
        }

        MemorySegment segment() {
            return MemorySegment.ofArray(data);
        }
    }

    private final McastEngine engine;
    private final McastSettings settings;
    private final CollCommunicator communicator;
    final Topology topology;
    /** The communicator's number in datagrams. */
    final int identity;
    final int rank;
    final int group;
    private long[] addresses;
    private AddressExchange exchange;
    private int nextSeq = 1;
    /** Every broadcast up to this one is complete here. */
    private int delivered;
    private final TreeSet<Integer> deliveredAhead = new TreeSet<>();
    private final Map<Integer, Assembly> assemblies = new HashMap<>();
    private final List<Slot> slots = new ArrayList<>();
    /** By rank: the highest broadcast it said it has delivered (acknowledgements to this rank). */
    private final int[] acked;
    /** By rank: the messages beyond {@code acked} it said it holds (credit-based flow control). */
    private final int[] credits;
    /** When this root last asked the receivers it had no credit from. */
    private long creditAsked;
    /** By rank: the highest broadcast from here whose group that co-root has served. */
    private final int[] groupAcked;
    /** Collectors owed an acknowledgement since the last one sent. */
    private final Set<Integer> owedAcks = new LinkedHashSet<>();
    /** As co-root, by root: the highest group acknowledgement sent, and the highest broadcast served. */
    private final Map<Integer, int[]> served = new HashMap<>();
    /** When another rank's NACK for a broadcast was last heard (suppression). */
    private final Map<Integer, Long> nackHeard = new HashMap<>();
    /**
     * An ACK_REQUEST: {@code asker} wants to know whether broadcast {@code seq} from {@code root}
     * arrived, or, for {@code credit}, how far this rank has delivered.
     */
    private record Question(int seq, int root, int asker, boolean credit) {
    }

    /** Questions to answer at the end of the progress turn. */
    private final List<Question> questions = new ArrayList<>();
    /** Receives of leaders' messages that an attached rank already had from the multicast. */
    private final List<PmlRequest> drains = new ArrayList<>();
    private boolean joined;
    private boolean freed;
    private boolean attached;
    private int leaderFirst;

    McastChannel(McastEngine engine, CollCommunicator communicator, int identity, Topology topology, int group) {
        this.engine = engine;
        this.settings = engine.settings;
        this.communicator = communicator;
        this.topology = topology;
        this.identity = identity;
        this.rank = communicator.rank();
        this.group = group;
        this.acked = new int[topology.size()];
        this.groupAcked = new int[topology.size()];
        this.credits = new int[topology.size()];
        Arrays.fill(credits, settings.earlyCapacity());
        if (topology.joinsGroup(rank)) {
            engine.carrier.join(group);
            joined = true;
        }
    }

    CollCommunicator communicator() {
        return communicator;
    }

    /** The number of the next broadcast: every rank counts its calls alike. */
    int nextSeq() {
        return nextSeq++;
    }

    /**
     * Whether the unicast addresses are known; the first call of the communicator starts their
     * exchange on its tag and waits here for it.
     */
    boolean ready(int tag) {
        if (addresses != null) {
            return true;
        }
        if (exchange == null) {
            exchange = new AddressExchange(communicator, engine.carrier.address(), tag);
        }
        addresses = exchange.result();
        return addresses != null;
    }

    // ---- delivery -------------------------------------------------------------------------------

    boolean isDelivered(int seq) {
        return seq <= delivered || deliveredAhead.contains(seq);
    }

    /** The complete multicast message of broadcast {@code seq}, if it has arrived. */
    Assembly assembled(int seq) {
        Assembly assembly = assemblies.get(seq);
        return assembly != null && assembly.complete() ? assembly : null;
    }

    /** How far broadcast {@code seq} has come, for a NACK; null if nothing of it arrived. */
    Assembly assembling(int seq) {
        return assemblies.get(seq);
    }

    /** Broadcast {@code seq} is complete at this rank (whichever way it came); acknowledges it if this rank must. */
    void delivered(int seq, Plan plan) {
        deliveredAhead.add(seq);
        while (deliveredAhead.remove(delivered + 1)) {
            delivered++;
        }
        assemblies.remove(seq);
        assemblies.keySet().removeIf(s -> s <= delivered);
        if (plan.role[rank] == Role.MEMBER) {
            owedAcks.add(plan.collector[rank]);
            if (Math.floorMod(seq + rank, settings.ackInterval()) == 0) {
                sendAcks();
            }
        }
    }

    private void sendAcks() {
        if (addresses == null) {
            return;
        }
        for (int collector : owedAcks) {
            sendAck(collector);
        }
        owedAcks.clear();
    }

    /** Tells {@code to} that every broadcast up to {@link #delivered} is complete here, and grants its credits. */
    private void sendAck(int to) {
        sendControl(Packet.ACK, (byte) 0, delivered, 0, settings.earlyCapacity(), to);
        engine.counters.acks++;
    }

    // ---- the root's and co-roots' window --------------------------------------------------------

    /** Whether the next broadcast must wait: the window of unacknowledged messages is full. */
    boolean windowFull() {
        return slots.size() >= settings.window();
    }

    /**
     * The window is full: the oldest message is treated as timed out (the paper's buffer
     * management), at most every quarter timeout.
     */
    void askAboutOldest(long now) {
        release();
        if (!slots.isEmpty()) {
            Slot oldest = slots.getFirst();
            if (now - oldest.lastSent >= settings.retransmitNanos() / 4) {
                timedOut(oldest, now);
            }
        }
    }

    /**
     * Credit-based flow control: whether some multicast receiver of this root has not granted
     * credit for broadcast {@code seq} (as far as this root has heard).
     */
    boolean outOfCredit(int seq, Plan plan) {
        if (settings.credits() == 0) {
            return false;
        }
        for (int r : plan.receivers()) {
            if (seq > (long) acked[r] + credits[r]) {
                return true;
            }
        }
        return false;
    }

    /**
     * Asks the receivers this root has no credit from for broadcast {@code seq} how far they have
     * delivered, at most every quarter retransmission timeout: others' broadcasts since its own
     * last one have moved them on unheard.
     */
    void askForCredit(int seq, Plan plan, long now) {
        if (addresses == null || now - creditAsked < settings.retransmitNanos() / 4) {
            return;
        }
        creditAsked = now;
        for (int r : plan.receivers()) {
            if (seq > (long) acked[r] + credits[r]) {
                sendControl(Packet.ACK_REQUEST, Packet.CREDIT, seq, rank, 0, r);
                engine.counters.creditRequests++;
            }
        }
    }

    /**
     * As root: keeps a copy of {@code message} in the window, multicasts it, and sends it to the
     * co-roots and the ranks of this host point-to-point.
     */
    void rootSend(int seq, MemorySegment message, Plan plan, int tag) {
        byte[] copy = message.toArray(ValueLayout.JAVA_BYTE);
        long now = System.nanoTime();
        Slot slot = new Slot(seq, rank, copy, plan.members(rank), plan.coroots(), now, settings.retransmitNanos());
        slots.add(slot);
        if (plan.multicasts) {
            sendData(slot, (byte) 0, -1);
        }
        for (int coroot : slot.coroots) {
            slot.sends.add(communicator.isend(slot.segment(), coroot, tag));
        }
        for (int local : plan.locals[rank]) {
            slot.sends.add(communicator.isend(slot.segment(), local, tag));
        }
    }

    /** As co-root: keeps the message it received from the root for its members' retransmissions. */
    void corootServe(int seq, MemorySegment message, Plan plan) {
        int[] members = plan.members(rank);
        int[] progress = served.computeIfAbsent(plan.root, r -> new int[2]);
        progress[1] = Math.max(progress[1], seq);
        if (members.length == 0) {
            sendGroupAck(plan.root, false);
            return;
        }
        byte[] copy = message.toArray(ValueLayout.JAVA_BYTE);
        slots.add(new Slot(seq, plan.root, copy, members, new int[0], System.nanoTime(), settings.retransmitNanos()));
    }

    /** Frees every message whose ranks have all acknowledged it. */
    private void release() {
        boolean freedServed = false;
        for (Iterator<Slot> it = slots.iterator(); it.hasNext();) {
            Slot slot = it.next();
            if (done(slot)) {
                it.remove();
                freedServed |= slot.root != rank;
            }
        }
        if (freedServed) {
            for (int root : served.keySet()) {
                sendGroupAck(root, false);
            }
        }
    }

    private boolean done(Slot slot) {
        for (int m : slot.members) {
            if (acked[m] < slot.seq) {
                return false;
            }
        }
        for (int c : slot.coroots) {
            if (groupAcked[c] < slot.seq) {
                return false;
            }
        }
        for (PmlRequest send : slot.sends) {
            if (!send.isComplete()) {
                return false;
            }
        }
        return true;
    }

    /** As co-root: tells {@code root} how far its group is served, every M-th time unless nothing is pending or asked. */
    private void sendGroupAck(int root, boolean asked) {
        int[] progress = served.get(root);
        if (progress == null || addresses == null) {
            return;
        }
        int value = progress[1];
        for (Slot slot : slots) {
            if (slot.root == root && slot.root != rank) {
                value = Math.min(value, slot.seq - 1);
            }
        }
        boolean idle = value == progress[1];
        if (asked || value > progress[0] && (idle || value - progress[0] >= settings.ackInterval())) {
            progress[0] = Math.max(progress[0], value);
            sendControl(Packet.GROUP_ACK, (byte) 0, value, root, 0, root);
            engine.counters.acks++;
        }
    }

    // ---- datagrams ------------------------------------------------------------------------------

    /**
     * Sends the message of {@code slot} in fragments: multicast if {@code to} is -1, else to that
     * rank (never empty: the module completes a broadcast of 0 bytes at once).
     */
    private void sendData(Slot slot, byte flags, int to) {
        int total = slot.data.length;
        int fragment = engine.fragmentBytes;
        ByteBuffer out = engine.out;
        for (int offset = 0; offset < total; offset += fragment) {
            int length = Math.min(fragment, total - offset);
            Packet.start(out, engine.job, identity, Packet.DATA, flags, rank, slot.seq, slot.root, total, offset);
            out.put(slot.data, offset, length).flip();
            transmit(out, to);
            engine.counters.datagrams++;
        }
    }

    private void sendControl(byte kind, byte flags, int seq, int root, int offset, int to) {
        ByteBuffer out = engine.out;
        Packet.start(out, engine.job, identity, kind, flags, rank, seq, root, 0, offset);
        out.flip();
        transmit(out, to);
    }

    /** Sends the datagram in {@code out} to the group if {@code to} is -1, else to that rank. */
    private void transmit(ByteBuffer out, int to) {
        if (to < 0) {
            engine.carrier.multicast(group, out);
        } else {
            engine.carrier.unicast(addresses[to], out);
        }
    }

    /** Asks for what is missing of broadcast {@code seq}: multicast, so other receivers keep quiet, and to the collector. */
    void sendNack(int seq, Plan plan, int firstMissing) {
        sendControl(Packet.NACK, (byte) 0, seq, plan.root, firstMissing, -1);
        if (addresses != null) {
            sendControl(Packet.NACK, Packet.DIRECT, seq, plan.root, firstMissing, plan.collector[rank]);
        }
        engine.counters.nacks++;
    }

    /** When another rank last asked for broadcast {@code seq}, or 0. */
    long nackHeard(int seq) {
        return nackHeard.getOrDefault(seq, 0L);
    }

    /** For tests: the bytes of the messages being assembled here. */
    long heldBytes() {
        return assemblies.values().stream().mapToLong(Assembly::total).sum();
    }

    /** For tests: the broadcasts whose NACK by another rank this rank remembers. */
    int nacksRemembered() {
        return nackHeard.size();
    }

    /** One datagram for this communicator (positioned after the header). */
    void receive(ByteBuffer in) {
        int sender = Packet.sender(in);
        if (sender == rank) {
            return; // its own multicast, come back
        }
        if (sender < 0 || sender >= acked.length) {
            engine.counters.strays++;
            return;
        }
        int seq = Packet.seq(in);
        switch (Packet.kind(in)) {
            case Packet.DATA -> receiveData(in, sender, seq);
            case Packet.ACK -> {
                if ((Packet.flags(in) & Packet.HELD) != 0) {
                    held(seq);
                } else {
                    acked[sender] = Math.max(acked[sender], seq);
                    // no receiver grants fewer than none, nor more than it may hold
                    credits[sender] = Math.clamp(Packet.offset(in), 0, settings.earlyCapacity());
                    release();
                }
            }
            case Packet.GROUP_ACK -> {
                groupAcked[sender] = Math.max(groupAcked[sender], seq);
                release();
            }
            case Packet.NACK -> receiveNack(seq, sender, (Packet.flags(in) & Packet.DIRECT) != 0);
            case Packet.ACK_REQUEST ->
                    questions.add(new Question(seq, Packet.root(in), sender, (Packet.flags(in) & Packet.CREDIT) != 0));
            default -> engine.counters.strays++;
        }
    }

    /** The most a message on this channel may bring: a broadcast's limit, or a leader's alltoall bundle. */
    private long largestMessage() {
        long ranks = acked.length;
        return Math.max(engine.settings.maxBytes(), engine.settings.alltoallMaxBlock() * ranks * ranks);
    }

    private void receiveData(ByteBuffer in, int sender, int seq) {
        int root = Packet.root(in);
        boolean ackNow = (Packet.flags(in) & Packet.ACK_NOW) != 0;
        if (root == rank) {
            return;
        }
        if (root < 0 || root >= acked.length) {
            engine.counters.strays++;
            return;
        }
        Plan plan = topology.plan(root);
        Role role = plan.role[rank];
        if (role == Role.COROOT) {
            if (ackNow) {
                sendGroupAck(root, true);
            }
            return;
        }
        if (isDelivered(seq)) {
            engine.counters.duplicates++;
            if (ackNow && addresses != null) {
                sendAck(sender);
            }
            return;
        }
        if (role == Role.LOCAL && !attached) {
            return;
        }
        Assembly assembly = assemblies.get(seq);
        if (assembly == null) {
            // held by distance from what is delivered, not by count: the next message to deliver
            // always finds room, or early ones of several roots could fill the space and wait for it
            if (seq - delivered > settings.earlyCapacity()) {
                engine.counters.overruns++;
                return;
            }
        }
        int total = Packet.total(in);
        // a datagram's word is not worth a heap (a broadcast of 0 bytes is never multicast), and
        // one that is no fragment of the message it names must not fix the message's length
        if ((assembly != null ? total != assembly.total() : total < 1 || total > largestMessage())
                || !Assembly.fits(total, engine.fragmentBytes, Packet.offset(in), in.limit() - Packet.HEADER)) {
            engine.counters.strays++;
            return;
        }
        if (assembly == null) {
            assembly = new Assembly(total, engine.fragmentBytes);
            assemblies.put(seq, assembly);
        }
        in.position(Packet.HEADER);
        if (!assembly.add(Packet.offset(in), in)) { // it came before
            engine.counters.duplicates++;
        }
    }

    /**
     * Another receiver's NACK (multicast: keep quiet a while) or one to this rank as collector:
     * in the NACK scheme the message goes out again to the group (at most every half NACK delay,
     * as several receivers may miss the same), otherwise to the one who asked.
     */
    private void receiveNack(int seq, int sender, boolean direct) {
        long now = System.nanoTime();
        if (!direct) {
            // only for a broadcast this rank may yet miss and hold: one beyond is no concern of its own
            if (seq <= delivered || seq - (long) delivered > settings.earlyCapacity()) {
                return;
            }
            nackHeard.put(seq, now);
            if (nackHeard.size() > 4 * settings.window()) {
                nackHeard.keySet().removeIf(s -> s <= delivered);
            }
            return;
        }
        for (Slot slot : slots) {
            if (slot.seq != seq) {
                continue;
            }
            if (settings.reliability() == Reliability.NACK && slot.root == rank) {
                if (now - slot.lastSent >= settings.nackDelayNanos() / 2) {
                    sendData(slot, Packet.RETRANSMIT, -1);
                    slot.lastSent = now;
                    engine.counters.retransmissions++;
                }
            } else {
                sendData(slot, Packet.RETRANSMIT, sender);
                engine.counters.retransmissions++;
            }
        }
    }

    /** A receiver holds message {@code seq} but its call has not taken it: its timer starts again, to ask again. */
    private void held(int seq) {
        long now = System.nanoTime();
        for (Slot slot : slots) {
            if (slot.seq == seq) {
                slot.asked = false;
                slot.lastSent = now;
            }
        }
    }

    /**
     * Answers the roots' and co-roots' questions of this progress turn, after every datagram
     * that had arrived was taken: a message still in the socket's queue is not missing.
     */
    void answerQuestions() {
        for (Question q : questions) {
            if (q.credit()) {
                if (addresses != null) {
                    sendAck(q.asker());
                }
            } else {
                answer(q.seq(), q.root(), q.asker());
            }
        }
        questions.clear();
    }

    /** A root or co-root asks about broadcast {@code seq}: acknowledge it, or say it is missing. */
    private void answer(int seq, int root, int asker) {
        if (addresses == null || root < 0 || root >= acked.length) {
            return;
        }
        if (topology.plan(root).role[rank] == Role.COROOT) {
            sendGroupAck(root, true);
        } else if (isDelivered(seq)) {
            sendAck(asker);
        } else if (assembled(seq) != null) {
            sendControl(Packet.ACK, Packet.HELD, seq, root, 0, asker);
        } else {
            Assembly partial = assemblies.get(seq);
            sendControl(Packet.NACK, Packet.DIRECT, seq, root, partial == null ? 0 : partial.firstMissing(), asker);
            engine.counters.nacks++;
        }
    }

    // ---- timers ---------------------------------------------------------------------------------

    /** Retransmits what timed out, and moves on what waits for nothing else. */
    void tick(long now) {
        if (!drains.isEmpty()) {
            drains.removeIf(PmlRequest::isComplete);
        }
        if (slots.isEmpty()) {
            return;
        }
        release();
        for (Slot slot : slots) {
            if (now - slot.lastSent >= slot.timeout) {
                timedOut(slot, now);
            }
        }
    }

    /**
     * No acknowledgement from some ranks in time. The first time they are asked (most often the
     * message arrived and the acknowledgement waits for the M-th message; a rank that misses it
     * says so and gets it at once); after that the message is sent again, asking for an
     * acknowledgement at once: multicast if the root has several such ranks, else to each.
     * Co-roots, which had it point-to-point, are only asked.
     */
    private void timedOut(Slot slot, long now) {
        if (addresses == null) {
            return;
        }
        int[] laggards = Arrays.stream(slot.members).filter(m -> acked[m] < slot.seq).toArray();
        if (!slot.asked) {
            for (int m : laggards) {
                sendControl(Packet.ACK_REQUEST, (byte) 0, slot.seq, slot.root, 0, m);
            }
            slot.asked = true;
        } else {
            byte flags = Packet.RETRANSMIT | Packet.ACK_NOW;
            if (slot.root == rank && laggards.length > 1) {
                sendData(slot, flags, -1);
            } else {
                for (int m : laggards) {
                    sendData(slot, flags, m);
                }
            }
            engine.counters.retransmissions++;
        }
        for (int c : slot.coroots) {
            if (groupAcked[c] < slot.seq) {
                sendControl(Packet.ACK_REQUEST, (byte) 0, slot.seq, rank, 0, c);
            }
        }
        slot.lastSent = now;
        slot.timeout = Math.min(2 * slot.timeout, MAX_TIMEOUT);
    }

    // ---- dynamic attach -------------------------------------------------------------------------

    boolean attached() {
        return attached;
    }

    /** A rank that waited too long for its leader joins the group itself. */
    void attach() {
        if (!attached) {
            attached = true;
            leaderFirst = 0;
            if (!joined) {
                engine.carrier.join(group);
                joined = true;
            }
            engine.counters.attaches++;
        }
    }

    /** An attached rank's call ended: its leader was first or not; after enough firsts in a row it leaves the group. */
    void leaderWasFirst(boolean first) {
        leaderFirst = first ? leaderFirst + 1 : 0;
        if (attached && leaderFirst >= settings.detachAfter()) {
            attached = false;
            if (joined && !topology.joinsGroup(rank)) {
                engine.carrier.leave(group);
                joined = false;
            }
            engine.counters.detaches++;
        }
    }

    /** A receive whose message is no longer wanted; it is completed and dropped later. */
    void drain(PmlRequest request) {
        drains.add(request);
    }

    /** The communicator is freed: what is owed is acknowledged now, and the group left. */
    void free() {
        freed = true;
        sendAcks();
        close();
    }

    boolean freed() {
        return freed;
    }

    /** Whether messages sent as root or co-root still wait for acknowledgements. */
    boolean keepsMessages() {
        return !slots.isEmpty();
    }

    void close() {
        if (joined) {
            engine.carrier.leave(group);
            joined = false;
        }
    }
}
