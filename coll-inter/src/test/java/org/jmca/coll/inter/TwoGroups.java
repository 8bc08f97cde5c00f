package org.jmca.coll.inter;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
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
 * An intercommunicator between two groups, every rank in one thread: group 0 holds the job ranks
 * 0..a-1, group 1 the ranks a..a+b-1. Sends are buffered at once; receives match in posting order
 * per (sender, receiver, tag), as the PML's do. A rank's point-to-point calls name ranks of the
 * other group, as an intercommunicator's do.
 */
final class TwoGroups {
    private record Key(int from, int to, int tag) {
    }

    private static final class Receive implements PmlRequest {
        private final MemorySegment buffer;
        private boolean done;

        Receive(MemorySegment buffer) {
            this.buffer = buffer;
        }

        void deliver(byte[] data) {
            if (data.length != buffer.byteSize()) {
                throw new AssertionError(data.length + " bytes arrived for a receive of " + buffer.byteSize());
            }
            MemorySegment.copy(MemorySegment.ofArray(data), 0, buffer, 0, data.length);
            done = true;
        }

        @Override
        public boolean isComplete() {
            return done;
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

    /** A send is buffered at once: complete as soon as it is made. */
    private static final PmlRequest SENT = PmlRequest.allOf(List.of());

    final int[] sizes;
    private final Map<Key, Queue<byte[]>> inFlight = new HashMap<>();
    private final Map<Key, Queue<Receive>> posted = new HashMap<>();
    private long messages;

    TwoGroups(int a, int b) {
        this.sizes = new int[] {a, b};
    }

    int jobSize() {
        return sizes[0] + sizes[1];
    }

    /** The group of job rank {@code job}. */
    int group(int job) {
        return job < sizes[0] ? 0 : 1;
    }

    /** The rank within its group of job rank {@code job}. */
    int local(int job) {
        return job - (group(job) == 0 ? 0 : sizes[0]);
    }

    /** The job rank of rank {@code rank} of group {@code group}. */
    int job(int group, int rank) {
        return (group == 0 ? 0 : sizes[0]) + rank;
    }

    /** Job rank {@code job}'s view of the intercommunicator. */
    CollCommunicator rank(int job) {
        int group = group(job);
        int other = 1 - group;
        return new CollCommunicator() {
            @Override
            public int rank() {
                return local(job);
            }

            @Override
            public int size() {
                return sizes[group];
            }

            @Override
            public boolean isInter() {
                return true;
            }

            @Override
            public int remoteSize() {
                return sizes[other];
            }

            @Override
            public String name() {
                return "two groups(" + sizes[0] + ", " + sizes[1] + ")";
            }

            @Override
            public PmlRequest isend(MemorySegment data, int dest, int tag) {
                Key key = new Key(job, job(other, checked(dest)), tag);
                messages++;
                byte[] copy = data.toArray(ValueLayout.JAVA_BYTE);
                Queue<Receive> waiting = posted.get(key);
                if (waiting != null && !waiting.isEmpty()) {
                    waiting.poll().deliver(copy);
                } else {
                    inFlight.computeIfAbsent(key, k -> new ArrayDeque<>()).add(copy);
                }
                return SENT;
            }

            @Override
            public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
                Key key = new Key(job(other, checked(source)), job, tag);
                Receive receive = new Receive(buffer);
                Queue<byte[]> arrived = inFlight.get(key);
                if (arrived != null && !arrived.isEmpty()) {
                    receive.deliver(arrived.poll());
                } else {
                    posted.computeIfAbsent(key, k -> new ArrayDeque<>()).add(receive);
                }
                return receive;
            }

            private int checked(int remote) {
                if (remote < 0 || remote >= sizes[other]) {
                    throw new AssertionError("job rank " + job + " names remote rank " + remote + " of "
                            + sizes[other]);
                }
                return remote;
            }
        };
    }

    /**
     * Tests every rank's request by turns until all complete; a pass in which nothing was sent and
     * nothing completed is a deadlock.
     */
    void runAll(List<CollRequest> requests) {
        List<CollRequest> open = new ArrayList<>(requests);
        while (!open.isEmpty()) {
            long before = messages;
            if (!open.removeIf(CollRequest::test) && messages == before) {
                throw new AssertionError("deadlock: " + open.size() + " rank(s) wait for messages that never come");
            }
        }
        long unreceived = inFlight.values().stream().mapToLong(Queue::size).sum();
        if (unreceived > 0) {
            throw new AssertionError(unreceived + " message(s) sent were never received");
        }
    }
}
