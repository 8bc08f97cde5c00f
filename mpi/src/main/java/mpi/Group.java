package mpi;

import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Set;
import java.util.stream.IntStream;

/**
 * An ordered set of processes, as job ranks, seen from this process (its rank in the group, or
 * MPI.UNDEFINED). Groups are local objects: making one talks to no other process.
 */
public final class Group implements Freeable {
    private final int[] jobRanks;
    /** This process's job rank, whether or not it is in the group (its rank follows from it). */
    private final int self;
    private boolean freed;

    Group(int[] jobRanks, int self) {
        this.jobRanks = jobRanks.clone();
        this.self = self;
    }

    /** MPI.GROUP_EMPTY: no process. */
    static Group empty() {
        return new Group(new int[0], -1);
    }

    public int getSize() throws MPIException {
        return live().jobRanks.length;
    }

    /** This process's rank in the group, or MPI.UNDEFINED. */
    public int getRank() throws MPIException {
        int rank = indexOf(live().jobRanks, self);
        return rank < 0 ? MPI.UNDEFINED : rank;
    }

    /** The processes of this group with the given ranks, in that order. */
    public Group incl(int[] ranks) throws MPIException {
        int[] members = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            members[i] = live().jobRanks[checkRank(ranks[i])];
        }
        return distinct(members, "MPI_Group_incl");
    }

    /** The processes of this group but those with the given ranks, in their order here. */
    public Group excl(int[] ranks) throws MPIException {
        boolean[] out = new boolean[live().jobRanks.length];
        for (int r : ranks) {
            out[checkRank(r)] = true;
        }
        return new Group(IntStream.range(0, jobRanks.length).filter(r -> !out[r]).map(r -> jobRanks[r]).toArray(),
                self);
    }

    /** The processes of the ranges {first, last, stride}, in that order. */
    public Group rangeIncl(int[][] ranges) throws MPIException {
        return incl(expand(ranges));
    }

    /** The processes of this group but those of the ranges {first, last, stride}. */
    public Group rangeExcl(int[][] ranges) throws MPIException {
        return excl(expand(ranges));
    }

    /** The ranks of ranges {first, last, stride}: first, first + stride, ... up to last (inclusive). */
    private int[] expand(int[][] ranges) throws MPIException {
        IntStream.Builder ranks = IntStream.builder();
        for (int[] range : ranges) {
            if (range == null || range.length != 3 || range[2] == 0) {
                throw new MPIException(MPI.ERR_ARG, "a rank range is {first, last, stride} with a stride other than"
                        + " 0, not " + Arrays.toString(range));
            }
            checkRank(range[0]);
            checkRank(range[1]);
            for (int r = range[0]; range[2] > 0 ? r <= range[1] : r >= range[1]; r += range[2]) {
                ranks.add(r);
            }
        }
        return ranks.build().toArray();
    }

    /** The processes of {@code group1}, then those of {@code group2} that are not in {@code group1}. */
    public static Group union(Group group1, Group group2) throws MPIException {
        Set<Integer> members = new LinkedHashSet<>();
        Arrays.stream(group1.live().jobRanks).forEach(members::add);
        Arrays.stream(group2.live().jobRanks).forEach(members::add);
        return new Group(members.stream().mapToInt(Integer::intValue).toArray(), group1.self);
    }

    /** The processes of {@code group1} that are also in {@code group2}, in their order in {@code group1}. */
    public static Group intersection(Group group1, Group group2) throws MPIException {
        int[] other = group2.live().jobRanks;
        return new Group(Arrays.stream(group1.live().jobRanks).filter(j -> indexOf(other, j) >= 0).toArray(),
                group1.self);
    }

    /** The processes of {@code group1} that are not in {@code group2}, in their order in {@code group1}. */
    public static Group difference(Group group1, Group group2) throws MPIException {
        int[] other = group2.live().jobRanks;
        return new Group(Arrays.stream(group1.live().jobRanks).filter(j -> indexOf(other, j) < 0).toArray(),
                group1.self);
    }

    /** The ranks in {@code group2} of the processes with {@code ranks1} in {@code group1} (MPI.UNDEFINED if absent). */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] result = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r == MPI.PROC_NULL) {
                result[i] = MPI.PROC_NULL;
                continue;
            }
            int index = indexOf(group2.live().jobRanks, group1.live().jobRanks[group1.checkRank(r)]);
            result[i] = index < 0 ? MPI.UNDEFINED : index;
        }
        return result;
    }

    /** MPI.IDENT (same processes, same order), MPI.SIMILAR (same processes) or MPI.UNEQUAL. */
    public static int compare(Group group1, Group group2) throws MPIException {
        if (Arrays.equals(group1.live().jobRanks, group2.live().jobRanks)) {
            return MPI.IDENT;
        }
        int[] a = group1.jobRanks.clone();
        int[] b = group2.jobRanks.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }

    /** The group is given back; using it afterwards is an MPI.ERR_GROUP error. MPI.GROUP_EMPTY stays. */
    @Override
    public void free() throws MPIException {
        if (this == MPI.GROUP_EMPTY) {
            throw new MPIException(MPI.ERR_GROUP, "the predefined MPI.GROUP_EMPTY cannot be freed");
        }
        live();
        freed = true;
    }

    public boolean isNull() {
        return freed;
    }

    /** The job ranks of the group's processes, in rank order. */
    int[] jobRanks() {
        return jobRanks.clone();
    }

    private Group live() throws MPIException {
        if (freed) {
            throw new MPIException(MPI.ERR_GROUP, "the group has been freed");
        }
        return this;
    }

    private int checkRank(int r) throws MPIException {
        if (r < 0 || r >= jobRanks.length) {
            throw new MPIException(MPI.ERR_RANK, "rank " + r + " is not in the group of size " + jobRanks.length);
        }
        return r;
    }

    private Group distinct(int[] members, String operation) throws MPIException {
        if (Arrays.stream(members).distinct().count() != members.length) {
            throw new MPIException(MPI.ERR_RANK, operation + ": a rank is named twice in " + Arrays.toString(members));
        }
        return new Group(members, self);
    }

    private static int indexOf(int[] members, int jobRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == jobRank) {
                return i;
            }
        }
        return -1;
    }
}
