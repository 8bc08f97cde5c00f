package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;
import java.util.Queue;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;

/**
 * Ranks of a test job as threads of this JVM: point-to-point messages through a shared
 * mailbox, matched per (context, source job rank, destination job rank, tag) in posting order,
 * as the PML matches them.
 */
final class ThreadRanks {
    private record Key(int context, int from, int to, int tag) {
    }

    private static final class Request implements PmlRequest {
        private final MemorySegment buffer;
        private volatile boolean complete;

        Request(MemorySegment buffer, boolean complete) {
            this.buffer = buffer;
            this.complete = complete;
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

    private final Map<Key, Queue<byte[]>> sent = new HashMap<>();
    private final Map<Key, Queue<Request>> posted = new HashMap<>();
    private final String job;

    ThreadRanks(String job) {
        this.job = job;
    }

    /** Rank {@code rank} of a communicator with context {@code context} over job ranks {@code jobRanks} on {@code hosts}. */
    CollCommunicator communicator(int context, int rank, int[] jobRanks, String[] hosts) {
        return new CollCommunicator() {
            @Override
            public int rank() {
                return rank;
            }

            @Override
            public int size() {
                return jobRanks.length;
            }

            @Override
            public String name() {
                return "test communicator " + context;
            }

            @Override
            public int jobRank(int r) {
                return jobRanks[r];
            }

            @Override
            public int contextId() {
                return context;
            }

            @Override
            public String host(int r) {
                return hosts[r];
            }

            @Override
            public String jobId() {
                return job;
            }

            @Override
            public PmlRequest isend(MemorySegment data, int dest, int tag) {
                return send(new Key(context, jobRanks[rank], jobRanks[dest], tag), data.toArray(java.lang.foreign.ValueLayout.JAVA_BYTE));
            }

            @Override
            public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
                return receive(new Key(context, jobRanks[source], jobRanks[rank], tag), buffer);
            }
        };
    }

    private synchronized PmlRequest send(Key key, byte[] data) {
        Queue<Request> waiting = posted.get(key);
        Request request = waiting == null ? null : waiting.poll();
        if (request != null) {
            deliver(request, data);
        } else {
            sent.computeIfAbsent(key, k -> new ArrayDeque<>()).add(data);
        }
        return new Request(null, true);
    }

    private synchronized PmlRequest receive(Key key, MemorySegment buffer) {
        Request request = new Request(buffer, false);
        Queue<byte[]> arrived = sent.get(key);
        byte[] data = arrived == null ? null : arrived.poll();
        if (data != null) {
            deliver(request, data);
        } else {
            posted.computeIfAbsent(key, k -> new ArrayDeque<>()).add(request);
        }
        return request;
    }

    private static void deliver(Request request, byte[] data) {
        MemorySegment.copy(MemorySegment.ofArray(data), 0, request.buffer, 0, data.length);
        request.complete = true;
    }
}
