package org.jmca.coll.inter;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Set;
import org.jmca.coll.base.Schedule;
import org.jmca.coll.base.ScheduleModule;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;

/**
 * The collectives between the two groups of one intercommunicator, as MPI 3.1 section 5.2.2
 * defines them and {@link CollCall} lays them out. Each is linear: a process sends to and
 * receives from the remote processes directly, in one round, and a reduction then folds the
 * remote operands in rank order (lowest first, so a non-commutative operation sees them as a
 * sequential loop would).
 */
final class InterCollModule implements CollModule {
    private static final MemorySegment EMPTY = MemorySegment.ofArray(new byte[0]);

    private final CollCommunicator communicator;
    /** The ranks of the other group. */
    private final int remote;

    InterCollModule(CollCommunicator communicator) {
        this.communicator = communicator;
        this.remote = communicator.remoteSize();
    }

    @Override
    public Set<CollFunction> provides() {
        Set<CollFunction> functions = EnumSet.allOf(CollFunction.class);
        functions.removeIf(f -> !f.betweenGroups());
        return functions;
    }

    @Override
    public String describe(CollFunction function) {
        return "linear between the groups";
    }

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        if (communicator.verbosity() >= 2) {
            communicator.log("coll:inter: " + function.id() + " of " + ScheduleModule.messageBytes(function, call)
                    + " B between " + communicator.size() + " and " + remote + " ranks: linear");
        }
        Schedule schedule = new Schedule(communicator, call.tag());
        switch (function) {
            case BARRIER -> {
                for (int r = 0; r < remote; r++) {
                    schedule.send(EMPTY, r).recv(EMPTY, r);
                }
            }
            case BCAST -> rooted(schedule, call, r -> call.recv());
            case SCATTER -> rooted(schedule, call, call::sendBlock);
            case SCATTERV -> rooted(schedule, call, r -> vectorBlock(call, call.send(), r));
            case GATHER -> gathered(schedule, call, call::recvBlock);
            case GATHERV -> gathered(schedule, call, r -> vectorBlock(call, call.recv(), r));
            case ALLGATHER -> {
                sendToAll(schedule, call.send());
                for (int r = 0; r < remote; r++) {
                    schedule.recv(call.recvBlock(r), r);
                }
            }
            case ALLGATHERV -> {
                sendToAll(schedule, call.send());
                for (int r = 0; r < remote; r++) {
                    schedule.recv(vectorBlock(call, call.recv(), r), r);
                }
            }
            case ALLTOALL -> {
                long sendBlock = call.send().byteSize() / remote;
                for (int r = 0; r < remote; r++) {
                    schedule.send(call.send().asSlice(r * sendBlock, sendBlock), r).recv(call.recvBlock(r), r);
                }
            }
            case ALLTOALLV -> {
                for (int r = 0; r < remote; r++) {
                    schedule.send(call.send().asSlice(call.bytes(call.sendDispls()[r]), call.bytes(call.sendCounts()[r])),
                            r).recv(vectorBlock(call, call.recv(), r), r);
                }
            }
            case REDUCE -> {
                if (call.root() == CollCall.ROOT) {
                    fold(schedule, call, call.bytes(call.count()), 0, call.count());
                } else if (call.root() >= 0) {
                    schedule.send(call.send(), call.root());
                }
            }
            case ALLREDUCE -> {
                sendToAll(schedule, call.send());
                fold(schedule, call, call.bytes(call.count()), 0, call.count());
            }
            case REDUCE_SCATTER, REDUCE_SCATTER_BLOCK -> reduceScatter(schedule, call, function);
            default -> throw new IllegalArgumentException(function.id() + " is not defined on an intercommunicator");
        }
        return schedule.start();
    }

    /** Where each remote rank's block of a vector function lies in {@code buffer}. */
    private interface Blocks {
        MemorySegment of(int rank);
    }

    /**
     * A rooted function whose data goes from the root to the other group: the root sends
     * {@code blocks.of(r)} to each remote rank r, which receives it into its {@code recv}.
     */
    private void rooted(Schedule schedule, CollCall call, Blocks blocks) {
        if (call.root() == CollCall.ROOT) {
            for (int r = 0; r < remote; r++) {
                schedule.send(blocks.of(r), r);
            }
        } else if (call.root() >= 0) {
            schedule.recv(call.recv(), call.root());
        }
    }

    /** A rooted function whose data goes from the other group to the root, into {@code blocks.of(r)}. */
    private void gathered(Schedule schedule, CollCall call, Blocks blocks) {
        if (call.root() == CollCall.ROOT) {
            for (int r = 0; r < remote; r++) {
                schedule.recv(blocks.of(r), r);
            }
        } else if (call.root() >= 0) {
            schedule.send(call.send(), call.root());
        }
    }

    private void sendToAll(Schedule schedule, MemorySegment data) {
        for (int r = 0; r < remote; r++) {
            schedule.send(data, r);
        }
    }

    /** Block {@code rank} of a vector function: {@code counts[rank]} elements at {@code displs[rank]}. */
    private static MemorySegment vectorBlock(CollCall call, MemorySegment buffer, int rank) {
        return buffer.asSlice(call.bytes(call.displs()[rank]), call.bytes(call.counts()[rank]));
    }

    /**
     * reduce_scatter: each process sends its whole vector (the sum of this group's counts) to every
     * remote rank, which folds the part that is its own.
     */
    private void reduceScatter(Schedule schedule, CollCall call, CollFunction function) {
        int[] counts = call.counts();
        long total = 0;
        long before = 0;
        for (int r = 0; r < communicator.size(); r++) {
            int count = function == CollFunction.REDUCE_SCATTER ? counts[r] : call.count();
            total += count;
            before += r < communicator.rank() ? count : 0;
        }
        sendToAll(schedule, call.send());
        fold(schedule, call, call.bytes(total), call.bytes(before), call.count());
    }

    /**
     * Receives every remote rank's operand vector of {@code vectorBytes} and folds elements
     * {@code [offset, offset + count)} of them into {@code call.recv()}: operand 0 op (operand 1 op
     * (... op operand n-1)).
     */
    private void fold(Schedule schedule, CollCall call, long vectorBytes, long offset, int count) {
        MemorySegment operands = Schedule.scratch(remote * vectorBytes);
        for (int r = 0; r < remote; r++) {
            schedule.recv(operands.asSlice(r * vectorBytes, vectorBytes), r);
        }
        schedule.round();
        long bytes = call.bytes(count);
        MemorySegment result = call.recv().asSlice(0, bytes);
        schedule.copy(operands.asSlice((remote - 1) * vectorBytes + offset, bytes), result);
        for (int r = remote - 2; r >= 0; r--) {
            schedule.reduce(call.op(), operands.asSlice(r * vectorBytes + offset, bytes), result, count);
        }
    }
}
