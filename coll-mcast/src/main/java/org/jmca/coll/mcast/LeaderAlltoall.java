package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.pml.PmlRequest;

/**
 * Alltoall through one leader per host, in the paper's three phases: the ranks of a host send
 * their whole send buffers to its leader (intra-host gather, over shared memory); leaders
 * exchange, for every pair of hosts, one message with every block from one host's ranks to the
 * other's (inter-host alltoall: one message per pair of hosts instead of one per pair of ranks);
 * each leader hands every rank of its host its receive buffer (intra-host scatter). Pays while
 * the messages' start-up cost dominates their transmission: small blocks.
 */
final class LeaderAlltoall implements CollRequest {
    private final CollCommunicator communicator;
    private final Topology topology;
    private final int tag;
    private final long block;
    private final MemorySegment send;
    private final MemorySegment recv;
    private final int rank;
    private final int size;
    private final int host;
    private final int[] locals;
    private final List<PmlRequest> pending = new ArrayList<>();
    /** At the leader: every local rank's send buffer, by its index on the host. */
    private MemorySegment[] gathered;
    /** At the leader: from every other host, the blocks its ranks send to this host's ranks. */
    private MemorySegment[] fromHost;
    private int step;

    LeaderAlltoall(CollCommunicator communicator, Topology topology, CollCall call) {
        this.communicator = communicator;
        this.topology = topology;
        this.tag = call.tag();
        this.rank = communicator.rank();
        this.size = communicator.size();
        this.block = call.bytes(call.count());
        this.recv = call.recv();
        // in place: the rank's blocks are in recv, which is overwritten; work from a copy
        this.send = call.inPlace() ? MemorySegment.ofArray(recv.asSlice(0, block * size)
                .toArray(ValueLayout.JAVA_BYTE)) : call.send();
        this.host = topology.hostOf(rank);
        this.locals = topology.ranksOf(host);
        start();
    }

    private boolean leader() {
        return locals[0] == rank;
    }

    private void start() {
        if (!leader()) {
            pending.add(communicator.isend(send.asSlice(0, block * size), locals[0], tag));
            pending.add(communicator.irecv(recv.asSlice(0, block * size), locals[0], tag));
            step = 3;
            return;
        }
        gathered = new MemorySegment[locals.length];
        gathered[0] = send;
        for (int i = 1; i < locals.length; i++) {
            gathered[i] = MemorySegment.ofArray(new byte[(int) (block * size)]);
            pending.add(communicator.irecv(gathered[i], locals[i], tag));
        }
        step = 1;
    }

    @Override
    public boolean test() {
        pending.removeIf(PmlRequest::isComplete);
        if (!pending.isEmpty()) {
            return false;
        }
        if (step == 1) {
            exchangeBetweenHosts();
            step = 2;
            return test();
        }
        if (step == 2) {
            scatterToRanks();
            step = 3;
            return test();
        }
        return true;
    }

    /** Leaders: one message to every other host's leader with every block from here to there. */
    private void exchangeBetweenHosts() {
        int hosts = topology.hosts();
        fromHost = new MemorySegment[hosts];
        for (int other = 0; other < hosts; other++) {
            if (other == host) {
                continue;
            }
            int[] theirs = topology.ranksOf(other);
            MemorySegment pack = MemorySegment.ofArray(new byte[(int) (block * locals.length * theirs.length)]);
            long at = 0;
            for (int i = 0; i < locals.length; i++) {
                for (int dest : theirs) {
                    MemorySegment.copy(gathered[i], block * dest, pack, at, block);
                    at += block;
                }
            }
            fromHost[other] = MemorySegment.ofArray(new byte[(int) (block * theirs.length * locals.length)]);
            pending.add(communicator.irecv(fromHost[other], theirs[0], tag));
            pending.add(communicator.isend(pack, theirs[0], tag));
        }
    }

    /** Leaders: every rank of the host gets its receive buffer, block by block from whoever sent it. */
    private void scatterToRanks() {
        for (int j = 0; j < locals.length; j++) {
            int dest = locals[j];
            MemorySegment out = j == 0 ? recv : MemorySegment.ofArray(new byte[(int) (block * size)]);
            for (int source = 0; source < size; source++) {
                int sourceHost = topology.hostOf(source);
                if (sourceHost == host) {
                    MemorySegment.copy(gathered[indexOn(locals, source)], block * dest, out, block * source, block);
                } else {
                    int[] theirs = topology.ranksOf(sourceHost);
                    long at = block * ((long) indexOn(theirs, source) * locals.length + j);
                    MemorySegment.copy(fromHost[sourceHost], at, out, block * source, block);
                }
            }
            if (j > 0) {
                pending.add(communicator.isend(out, dest, tag));
            }
        }
    }

    private static int indexOn(int[] ranks, int rank) {
        for (int i = 0; i < ranks.length; i++) {
            if (ranks[i] == rank) {
                return i;
            }
        }
        throw new IllegalStateException("rank " + rank + " is not on this host");
    }
}
