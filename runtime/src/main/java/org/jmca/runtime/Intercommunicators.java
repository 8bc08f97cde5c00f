package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.function.Supplier;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * {@code MPI_Intercomm_create}: two groups of one job, each with a leader, make an
 * intercommunicator; the leaders swap their groups over a bridge communicator both belong to,
 * then each tells its group.
 */
public final class Intercommunicators {
    private Intercommunicators() {
    }

    /**
     * The intercommunicator between {@code local}'s group and the group whose leader is
     * {@code remoteLeader} in the bridge (read at the local leader only). Collective over both groups.
     *
     * @param bridge the bridge communicator, asked for at the local leader only (it may be
     *               unusable elsewhere); its failure there is told to the whole group
     */
    public static DynamicProcesses.Connected create(JobRuntime rt, Communicator local, int localLeader,
                                                    Supplier<Communicator> bridge, int remoteLeader, int tag) {
        if (local.inter()) {
            throw new MpiError(ErrorClass.COMM, "the local communicator " + local + " is an intercommunicator");
        }
        if (localLeader < 0 || localLeader >= local.size()) {
            throw new MpiError(ErrorClass.RANK, "local leader " + localLeader + " is not a rank of " + local);
        }
        if (Arrays.stream(local.jobRanks).anyMatch(r -> r >= rt.job.size())) {
            throw new MpiError(ErrorClass.COMM, local + " has processes of another job: createIntercomm takes"
                    + " groups of this job's processes (use accept/connect or merge between jobs)");
        }
        // the leader tells the group what came back: {0, ranks...}, or {error class} if it failed
        int[] told = null;
        int leader = -1;
        int bridgeContext = -1;
        if (local.rank == localLeader) {
            try {
                Communicator.checkSendTag(tag);
                Communicator peers = bridge.get();
                bridgeContext = peers.context;
                leader = peers.destination(remoteLeader);
                if (leader >= rt.job.size()) {
                    throw new MpiError(ErrorClass.COMM, "the remote leader is a process of another job:"
                            + " createIntercomm takes groups of this job's processes");
                }
                int[] theirs = leadersExchange(rt, local.jobRanks, leader, tag, bridgeContext, rt.job.size());
                told = new int[1 + theirs.length];
                System.arraycopy(theirs, 0, told, 1, theirs.length);
            } catch (MpiError e) {
                // the group waits for the leader's word: it must hear of a failure too
                InternalCollectives.bcast(local, new int[] {e.errorClass()}, localLeader, rt.job.size() + 1);
                throw e;
            }
        }
        told = InternalCollectives.bcast(local, told, localLeader, rt.job.size() + 1);
        if (told[0] != 0) {
            throw new MpiError(told[0], "the local leader (rank " + localLeader + " of " + local + ") could not"
                    + " reach the remote leader (it reports why)");
        }
        int remoteLeaderRank = leader;
        int leadersContext = bridgeContext;
        // the largest over both groups: each group's, swapped by the leaders over the bridge
        int context = rt.agree(value -> {
            int largest = InternalCollectives.allreduceMax(local, value);
            int[] theirs = local.rank == localLeader
                    ? leadersExchange(rt, new int[] {largest}, remoteLeaderRank, tag, leadersContext, 1) : null;
            return Math.max(largest, InternalCollectives.bcast(local, theirs, localLeader, 1)[0]);
        });
        return new DynamicProcesses.Connected(local + " intercomm(" + tag + ")", context,
                Arrays.copyOfRange(told, 1, told.length));
    }

    /**
     * Sends {@code mine} to {@code leader} and returns what it sent this way (up to {@code
     * capacity} ints), on {@code context} with {@code tag}.
     */
    public static int[] leadersExchange(JobRuntime rt, int[] mine, int leader, int tag, int context, int capacity) {
        if (leader < 0) {
            throw new MpiError(ErrorClass.RANK, "the remote leader is MPI.PROC_NULL");
        }
        int[] theirs = new int[capacity];
        PmlRequest receive = rt.pml.irecv(MemorySegment.ofArray(theirs), leader, tag, context);
        PmlRequest send = rt.pml.isend(MemorySegment.ofArray(mine), leader, tag, context, SendMode.STANDARD);
        rt.progress.waitUntil(() -> receive.isComplete() && send.isComplete());
        if (receive.status().truncated()) {
            throw new MpiError(ErrorClass.TRUNCATE, "the remote leader sent more than the " + capacity
                    + " ints expected");
        }
        return Arrays.copyOf(theirs, (int) (receive.status().byteCount() / Integer.BYTES));
    }
}
