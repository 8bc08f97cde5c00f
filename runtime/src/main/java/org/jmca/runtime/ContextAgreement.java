package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.stream.IntStream;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.Reduction;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A new context agreed without blocking, for {@code mpi.Comm.iDup()}: rounds of two non-blocking
 * allreduces over the parent (on an intercommunicator, over both groups: every process sends its
 * value to every other and takes the largest). The first takes the largest of the ranks' next free contexts; in
 * the second each rank says whether that one is still free here, and takes it at once if it is
 * (so that nothing it creates meanwhile gets it); if a rank took it for something else in
 * between, the ranks propose again. Blocking agreements work the same way ({@link
 * JobRuntime#agree}), so the rounds go on during them. Tested from waits and from a progress
 * callback: one thread at a time. Every round uses the one collective tag drawn when the
 * iDup was called, so calls the program makes meanwhile keep their tags in step.
 */
public final class ContextAgreement implements PmlRequest {
    /** What to do with the context once every rank has it. */
    public interface Agreed {
        void accept(int context);
    }

    /** MPI_MAX on one int. */
    private static final Reduction MAX_INT = Reductions.predefined(PredefinedOp.MAX, Type.INT);

    private final Communicator parent;
    private final JobRuntime runtime;
    private final Agreed agreed;
    private final int tag;
    private final int[] mine = new int[1];
    private final int[] result = new int[1];
    private final ProgressEngine.Registration registration;
    private CollRequest round;
    private boolean checking;
    private int candidate;
    private boolean done;

    public ContextAgreement(Communicator parent, JobRuntime runtime, Agreed agreed) {
        this.parent = parent;
        this.runtime = runtime;
        this.agreed = agreed;
        this.tag = parent.port.nextTag();
        propose();
        // the other ranks wait for this one's rounds: advance them whatever the program calls
        this.registration = runtime.progress.register(() -> {
            isComplete();
            return 0;
        }, ProgressEngine.Priority.LOW);
    }

    private void propose() {
        mine[0] = runtime.nextContext;
        checking = false;
        round = start();
    }

    private CollRequest start() {
        if (parent.coll() == null) {
            return everyoneMax();
        }
        return parent.coll().module(CollFunction.ALLREDUCE).start(CollFunction.ALLREDUCE,
                CollCall.of(MemorySegment.ofArray(mine), MemorySegment.ofArray(result), 1, Integer.BYTES, 0, MAX_INT,
                        tag));
    }

    /** The allreduce of an intercommunicator's two groups: {@code mine} to every other process, the largest kept. */
    private CollRequest everyoneMax() {
        int[] others = IntStream.concat(Arrays.stream(parent.jobRanks), Arrays.stream(parent.peers))
                .filter(r -> r != runtime.job.rank()).toArray();
        int[] values = new int[others.length];
        PmlRequest[] operations = new PmlRequest[2 * others.length];
        MemorySegment value = MemorySegment.ofArray(mine.clone());
        for (int i = 0; i < others.length; i++) {
            operations[2 * i] = runtime.pml.irecv(MemorySegment.ofArray(values).asSlice(4L * i, 4), others[i], tag,
                    parent.context + 1);
            operations[2 * i + 1] = runtime.pml.isend(value, others[i], tag, parent.context + 1, SendMode.STANDARD);
        }
        return () -> {
            for (PmlRequest operation : operations) {
                if (!operation.isComplete()) {
                    return false;
                }
            }
            result[0] = Math.max(mine[0], Arrays.stream(values).max().orElse(Integer.MIN_VALUE));
            return true;
        };
    }

    @Override
    public synchronized boolean isComplete() {
        while (!done && round.test()) {
            if (!checking) {
                candidate = result[0];
                boolean free = candidate >= runtime.nextContext;
                if (free) {
                    runtime.contextTaken(candidate);
                }
                mine[0] = free ? 0 : 1;
                checking = true;
                round = start();
            } else if (result[0] == 0) {
                done = true;
                if (registration != null) {
                    registration.close();
                }
                agreed.accept(candidate);
            } else {
                propose();
            }
        }
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
