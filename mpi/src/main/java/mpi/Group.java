package mpi;

import java.util.Arrays;

/** An ordered set of processes, as job ranks. */
public final class Group {
    private final int[] jobRanks;
    private final int rank;

    Group(int[] jobRanks, int rank) {
        this.jobRanks = jobRanks.clone();
        this.rank = rank;
    }

    public int getSize() throws MPIException {
        return jobRanks.length;
    }

    /** This process's rank in the group, or MPI.UNDEFINED. */
    public int getRank() throws MPIException {
        return rank < 0 ? MPI.UNDEFINED : rank;
    }

    /** The processes of this group with the given ranks, in that order. */
    public Group incl(int[] ranks) throws MPIException {
        int[] members = new int[ranks.length];
        for (int i = 0; i < ranks.length; i++) {
            members[i] = jobRanks[checkRank(ranks[i])];
        }
        return new Group(members, indexOf(members, rank < 0 ? -1 : jobRanks[rank]));
    }

    /** The processes of this group but those with the given ranks, in their order here. */
    public Group excl(int[] ranks) throws MPIException {
        boolean[] out = new boolean[jobRanks.length];
        for (int r : ranks) {
            out[checkRank(r)] = true;
        }
        int[] members = java.util.stream.IntStream.range(0, jobRanks.length).filter(r -> !out[r])
                .map(r -> jobRanks[r]).toArray();
        return new Group(members, indexOf(members, rank < 0 ? -1 : jobRanks[rank]));
    }

    private int checkRank(int r) throws MPIException {
        if (r < 0 || r >= jobRanks.length) {
            throw new MPIException(MPI.ERR_RANK, "rank " + r + " is not in the group of size " + jobRanks.length);
        }
        return r;
    }

    private static int indexOf(int[] members, int jobRank) {
        for (int i = 0; i < members.length; i++) {
            if (members[i] == jobRank) {
                return i;
            }
        }
        return -1;
    }

    /** The job ranks of the group's processes, in rank order. */
    int[] jobRanks() {
        return jobRanks.clone();
    }

    /** The ranks in {@code group2} of the processes with {@code ranks1} in {@code group1} (MPI.UNDEFINED if absent). */
    public static int[] translateRanks(Group group1, int[] ranks1, Group group2) throws MPIException {
        int[] result = new int[ranks1.length];
        for (int i = 0; i < ranks1.length; i++) {
            int r = ranks1[i];
            if (r < 0 || r >= group1.jobRanks.length) {
                throw new MPIException(MPI.ERR_RANK, "rank " + r + " is not in the group of size " + group1.jobRanks.length);
            }
            result[i] = MPI.UNDEFINED;
            for (int j = 0; j < group2.jobRanks.length; j++) {
                if (group2.jobRanks[j] == group1.jobRanks[r]) {
                    result[i] = j;
                }
            }
        }
        return result;
    }

    /** MPI.IDENT (same processes, same order), MPI.SIMILAR (same processes) or MPI.UNEQUAL. */
    public static int compare(Group group1, Group group2) throws MPIException {
        if (Arrays.equals(group1.jobRanks, group2.jobRanks)) {
            return MPI.IDENT;
        }
        int[] a = group1.jobRanks.clone();
        int[] b = group2.jobRanks.clone();
        Arrays.sort(a);
        Arrays.sort(b);
        return Arrays.equals(a, b) ? MPI.SIMILAR : MPI.UNEQUAL;
    }
}
