package org.jmca.pml.ob1;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeMap;
import org.agrona.collections.Int2ObjectHashMap;

/**
 * The matching state of one communicator context: posted receives and unexpected messages, each
 * in arrival order, and per peer the sequence numbers that keep one sender's messages in order.
 *
 * <p>A new receive searches the unexpected messages first; an arriving message searches the
 * posted receives in the order they were posted, so a wildcard receive posted before a specific
 * one wins, as MPI requires.
 */
final class MatchContext {
    final int id;
    private final List<Ob1RecvRequest> posted = new ArrayList<>();
    private final List<Unexpected> unexpected = new ArrayList<>();
    private final int[] nextSendSeq;
    private final int[] expectedSeq;
    private final Int2ObjectHashMap<TreeMap<Integer, Held>> outOfOrder = new Int2ObjectHashMap<>();
    /** Fragments held in {@link #outOfOrder}; zero on the common path, which then skips the map. */
    private int held;

    /** A message that arrived before its receive was posted; its first bytes are copied. */
    record Unexpected(byte kind, int source, int tag, long total, long sendId, long address, long key,
                      MemorySegment payload) { }

    /** A fragment that arrived ahead of its sequence number, copied until its turn. */
    record Held(byte kind, MemorySegment fragment) { }

    MatchContext(int id, int jobSize) {
        this.id = id;
        this.nextSendSeq = new int[jobSize];
        this.expectedSeq = new int[jobSize];
    }

    int nextSendSeq(int dest) {
        return nextSendSeq[dest]++;
    }

    /** True if {@code seq} is the next message expected from {@code source}; advances if so. */
    boolean takeTurn(int source, int seq) {
        if (expectedSeq[source] != seq) {
            return false;
        }
        expectedSeq[source]++;
        return true;
    }

    void hold(int source, int seq, byte kind, MemorySegment fragment) {
        outOfOrder.computeIfAbsent(source, s -> new TreeMap<>()).put(seq, new Held(kind, copy(fragment)));
        held++;
    }

    /** The held fragment whose turn has come, advancing the sequence; null if none. */
    Held nextHeld(int source) {
        if (held == 0) {
            return null;
        }
        TreeMap<Integer, Held> fromSource = outOfOrder.get(source);
        Held next = fromSource == null ? null : fromSource.remove(expectedSeq[source]);
        if (next != null) {
            expectedSeq[source]++;
            held--;
        }
        return next;
    }

    void post(Ob1RecvRequest request) {
        posted.add(request);
    }

    boolean hasPosted() {
        return !posted.isEmpty();
    }

    boolean removePosted(Ob1RecvRequest request) {
        return posted.remove(request);
    }

    /** Removes and returns the first posted receive that matches, or null. */
    Ob1RecvRequest matchPosted(int source, int tag) {
        for (int i = 0, n = posted.size(); i < n; i++) {
            Ob1RecvRequest request = posted.get(i);
            if (request.matches(source, tag)) {
                posted.remove(i);
                return request;
            }
        }
        return null;
    }

    void addUnexpected(byte kind, int source, int tag, long total, long sendId, long address, long key,
                       MemorySegment payload) {
        unexpected.add(new Unexpected(kind, source, tag, total, sendId, address, key, copy(payload)));
    }

    /** The first unexpected message a receive for (source, tag) matches; removed if {@code take}. */
    Unexpected findUnexpected(Ob1RecvRequest probe, boolean take) {
        for (int i = 0, n = unexpected.size(); i < n; i++) {
            Unexpected message = unexpected.get(i);
            if (probe.matches(message.source(), message.tag())) {
                if (take) {
                    unexpected.remove(i);
                }
                return message;
            }
        }
        return null;
    }

    private static MemorySegment copy(MemorySegment source) {
        MemorySegment copy = MemorySegment.ofArray(new byte[(int) source.byteSize()]);
        MemorySegment.copy(source, 0, copy, 0, source.byteSize());
        return copy;
    }
}
