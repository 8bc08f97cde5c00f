package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;

/**
 * Ranks of one communicator in one thread: sends are buffered at once, receives match in posting
 * order per (source, destination, tag) as the PML's do. Running every rank's schedule by turns
 * shows an algorithm's result, and a deadlock as a pass in which no schedule moves.
 */
final class SimulatedNetwork {
    private record Key(int from, int to, int tag) {
    }

    private static final class Request implements PmlRequest {
        private final MemorySegment buffer;
        private PmlStatus status;

        Request(MemorySegment buffer) {
            this.buffer = buffer;
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

        void deliver(int from, int tag, byte[] data) {
            boolean truncated = data.length > buffer.byteSize();
            MemorySegment.copy(MemorySegment.ofArray(data), 0, buffer, 0, Math.min(data.length, buffer.byteSize()));
            status = new PmlStatus(from, tag, Math.min(data.length, buffer.byteSize()), false, truncated);
        }
    }

    private final int size;
    private final Map<Key, Queue<byte[]>> inFlight = new HashMap<>();
    private final Map<Key, Queue<Request>> posted = new HashMap<>();
    long messages;
    long bytes;

    SimulatedNetwork(int size) {
        this.size = size;
    }

    CollCommunicator rank(int rank) {
        return new CollCommunicator() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return size;
            }

            @Override
            public String name() {
                return "simulated(" + size + ")";
            }

            @Override
            public PmlRequest isend(MemorySegment data, int dest, int tag) {
                if (dest < 0 || dest >= size) {
                    throw new IllegalArgumentException("rank " + rank + " sends to " + dest);
                }
                messages++;
                bytes += data.byteSize();
                Key key = new Key(rank, dest, tag);
                Queue<Request> waiting = posted.get(key);
                byte[] copy = data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE);
                if (waiting != null && !waiting.isEmpty()) {
                    waiting.poll().deliver(rank, tag, copy);
                } else {
                    inFlight.computeIfAbsent(key, k -> new ArrayDeque<>()).add(copy);
                }
                Request done = new Request(MemorySegment.NULL);
                done.status = PmlStatus.EMPTY;
                return done;
            }

            @Override
            public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
                if (source < 0 || source >= size) {
                    throw new IllegalArgumentException("rank " + rank + " receives from " + source);
                }
                Key key = new Key(source, rank, tag);
                Request request = new Request(buffer);
                Queue<byte[]> arrived = inFlight.get(key);
                if (arrived != null && !arrived.isEmpty()) {
                    request.deliver(source, tag, arrived.poll());
                } else {
                    posted.computeIfAbsent(key, k -> new ArrayDeque<>()).add(request);
                }
                return request;
            }
        };
    }

    /**
     * Tests every rank's request by turns until all complete. A pass in which no rank sent a
     * message and none completed can never be followed by one that does: that is a deadlock.
     */
    void runAll(List<CollRequest> requests) {
        List<CollRequest> open = new ArrayList<>(requests);
        while (!open.isEmpty()) {
            long sentBefore = messages;
            boolean completed = open.removeIf(CollRequest::test);
            if (!completed && messages == sentBefore) {
                throw new AssertionError("deadlock: " + open.size() + " rank(s) wait for messages that never come");
            }
        }
    }

    /** Messages still unreceived: a correct algorithm leaves none. */
    long unreceived() {
        return inFlight.values().stream().mapToLong(Queue::size).sum();
    }
}
