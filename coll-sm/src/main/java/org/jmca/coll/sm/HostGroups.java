package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentMap;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A communicator's ranks grouped by host, in the order their hosts first appear: each host's
 * ranks as a communicator of their own (the shared-memory level), and the first rank of each
 * host, its leader, in a communicator of leaders whose messages travel on the parent's collective
 * context with the parent call's tag.
 */
final class HostGroups {
    final CollCommunicator parent;
    /** The ranks of each host, ascending. */
    final List<int[]> hosts;
    /** The host index of each rank. */
    final int[] hostOf;
    /** The index of each rank among its host's. */
    final int[] indexOnHost;

    HostGroups(CollCommunicator parent) {
        this.parent = parent;
        Map<String, List<Integer>> byHost = new LinkedHashMap<>();
        for (int r = 0; r < parent.size(); r++) {
            byHost.computeIfAbsent(parent.host(r), h -> new ArrayList<>()).add(r);
        }
        this.hosts = new ArrayList<>();
        this.hostOf = new int[parent.size()];
        this.indexOnHost = new int[parent.size()];
        for (List<Integer> ranks : byHost.values()) {
            int[] group = ranks.stream().mapToInt(Integer::intValue).toArray();
            for (int i = 0; i < group.length; i++) {
                hostOf[group[i]] = hosts.size();
                indexOnHost[group[i]] = i;
            }
            hosts.add(group);
        }
    }

    int myHost() {
        return hostOf[parent.rank()];
    }

    boolean leader() {
        return indexOnHost[parent.rank()] == 0;
    }

    /** This rank's host's ranks as a communicator. */
    CollCommunicator local() {
        return new View(hosts.get(myHost()), indexOnHost[parent.rank()], "host " + parent.host(parent.rank()));
    }

    /** The leaders as a communicator; only a leader uses it. */
    CollCommunicator leaders() {
        int[] leaders = new int[hosts.size()];
        for (int h = 0; h < leaders.length; h++) {
            leaders[h] = hosts.get(h)[0];
        }
        return new View(leaders, myHost(), "leaders");
    }

    /** Some of the parent's ranks, renumbered from 0. */
    private final class View implements CollCommunicator {
        private final int[] ranks;
        private final int rank;
        private final String name;

        View(int[] ranks, int rank, String part) {
            this.ranks = ranks;
            this.rank = rank;
            this.name = parent.name() + " (" + part + ")";
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return ranks.length;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public int jobRank(int r) {
            return parent.jobRank(ranks[r]);
        }

        @Override
        public String host(int r) {
            return parent.host(ranks[r]);
        }

        @Override
        public int contextId() {
            return parent.contextId();
        }

        @Override
        public String jobId() {
            return parent.jobId();
        }

        @Override
        public Path sessionDirectory() {
            return parent.sessionDirectory();
        }

        @Override
        public ConcurrentMap<String, Object> threadJob() {
            return parent.threadJob();
        }

        @Override
        public ProgressEngine progressEngine() {
            return parent.progressEngine();
        }

        @Override
        public PmlRequest isend(MemorySegment data, int dest, int tag) {
            return parent.isend(data, ranks[dest], tag);
        }

        @Override
        public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
            return parent.irecv(buffer, ranks[source], tag);
        }
    }
}
