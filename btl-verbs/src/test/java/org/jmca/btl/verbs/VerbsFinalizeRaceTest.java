package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jmca.mca.btl.BtlEndpoint;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * MPI_Finalize's tear-down race (issue 36): a process leaves as soon as its own sends are
 * acknowledged and it has what it waits for, while work of its peers to it may still be in
 * flight - the acknowledgement of the last fragment it took, the credits that fragment gives
 * back. Before the BYE handshake a peer's work then met a queue pair that was gone and failed
 * with IBV_WC_RETRY_EXC_ERR: "a SEND to rank 1 failed (sent 1, received 1, outstanding 1)" in
 * a job over the socket wire, "a RDMA_WRITE to rank 0 failed" in the interleaving staged here.
 */
class VerbsFinalizeRaceTest {
    private static final byte DATA = 1;
    private static final byte BARRIER = 2;
    private static final long BUDGET_NANOS = 1_500_000_000L;
    private static final int MAX_RUNS = 8;

    /**
     * The receiver's upcall of the fragment that makes it return credits is where the sender,
     * another process, finalizes: its last send was acknowledged (by the receiver's device) just
     * before. The credit return that follows must not fail for it, nor anything after.
     */
    @ParameterizedTest(name = "over the socket wire: {0}")
    @ValueSource(booleans = {false, true})
    void creditsReturnedToAPeerThatFinalizedRightAfterItsLastSendAreNoError(boolean socketWire) {
        VerbsSettings settings = SoftFabric.settings(0, VictimPolicy.LRU);
        SoftFabric fabric = new SoftFabric(2, settings, SoftFaults.NONE, socketWire);
        VerbsBtlModule leaving = fabric.modules.get(0);
        VerbsBtlModule staying = fabric.modules.get(1);
        int creditFragment = settings.receiveBuffers() / 2; // the fragment whose repost returns credits
        int[] got = new int[1];
        leaving.setReceiver((from, tag, memory, offset, length) -> { });
        staying.setReceiver((from, tag, memory, offset, length) -> {
            if (++got[0] == creditFragment) {
                while (leaving.hasPendingSends()) {
                    leaving.progress();
                }
                leaving.finalizeModule(); // MPI_Finalize of the other process, at this moment
            }
        });
        try {
            BtlEndpoint toStaying = fabric.endpoints.get(0).get(1);
            for (int i = 0; i < creditFragment; i++) {
                while (!leaving.send(toStaying, DATA, MemorySegment.ofArray(new byte[8]), MemorySegment.NULL)) {
                    leaving.progress();
                    staying.progress();
                }
            }
            long deadline = System.nanoTime() + 10_000_000_000L;
            while (got[0] < creditFragment) {
                if (got[0] < creditFragment - 1) {
                    leaving.progress(); // not once its last fragment may have gone: it finalizes in the upcall
                }
                staying.progress();
                assertThat(System.nanoTime()).as("fragments arrived: %d", got[0]).isLessThan(deadline);
            }
            // What the staying process's MPI_Finalize does first: wait until its work has completed.
            while (staying.hasPendingSends()) {
                staying.progress();
                assertThat(System.nanoTime()).as("the staying side's work completes: %s",
                        staying.describeConnections()).isLessThan(deadline);
            }
            for (long until = System.nanoTime() + 600_000_000L; System.nanoTime() < until; ) {
                staying.progress(); // past the RC retries of anything that could still fail (7 x 67 ms)
            }
            assertThat(staying.describeConnections()).as("the leaving peer's connection").contains("0 open");
        } finally {
            staying.finalizeModule();
            fabric.removeDirectory();
        }
    }

    /**
     * A job's end, each rank on a thread of its own as a process would be: random traffic
     * between all pairs at {@code max_conn} 1 (LRU-M: connections are torn down all the time),
     * then what {@code MPI.Finalize} does - wait until this rank's sends are out, a dissemination
     * barrier of one fragment each way per round, wait again - and at once {@code finalizeModule}.
     * No rank's send may fail (before the fix, over the socket wire, a rank sometimes left before
     * its wire sent the acknowledgement of the barrier's last fragment).
     */
    @Test
    void aRankThatFinalizesRightAfterTheBarrierFailsNoPeersSend() throws InterruptedException {
        long start = System.nanoTime();
        for (int run = 0; run < MAX_RUNS && (run < 4 || System.nanoTime() - start < BUDGET_NANOS); run++) {
            boolean socketWire = run % 2 == 1;
            List<String> errors = job(4, socketWire, 1000 + run);
            assertThat(errors).as("run %d (%s): errors of the ranks", run, socketWire ? "socket wire" : "one host")
                    .isEmpty();
        }
    }

    /** Finalize with a peer that died (it said no BYE) returns within its bounds and throws nothing. */
    @Test
    void finalizeWithAPeerThatDiedIsBoundedAndThrowsNothing() {
        SoftFabric fabric = new SoftFabric(2, SoftFabric.settings(0, VictimPolicy.LRU), SoftFaults.NONE);
        VerbsBtlModule survivor = fabric.modules.get(0);
        VerbsBtlModule dying = fabric.modules.get(1);
        int[] got = new int[1];
        survivor.setReceiver((from, tag, memory, offset, length) -> { });
        dying.setReceiver((from, tag, memory, offset, length) -> got[0]++);
        try {
            BtlEndpoint toDying = fabric.endpoints.get(0).get(1);
            assertThat(survivor.send(toDying, DATA, MemorySegment.ofArray(new byte[8]), MemorySegment.NULL)).isTrue();
            VerbsBtlContractTest.progressUntil(fabric, () -> got[0] == 1 && !survivor.hasPendingSends());
            dying.release();
            // A send in flight to the dead peer, never acknowledged: finalize waits for it, bounded.
            assertThat(survivor.send(toDying, DATA, MemorySegment.ofArray(new byte[8]), MemorySegment.NULL)).isTrue();
            survivor.progress();
            long began = System.nanoTime();
            survivor.finalizeModule();
            assertThat((System.nanoTime() - began) / 1_000_000).as("ms in finalize").isLessThan(1_000);
        } finally {
            fabric.removeDirectory();
        }
    }

    /** One job: every rank's errors (empty when all went well). */
    static List<String> job(int ranks, boolean socketWire, long seed) throws InterruptedException {
        VerbsSettings settings = SoftFabric.settings(1, VictimPolicy.LRU_M);
        SoftFabric fabric = new SoftFabric(ranks, settings, SoftFaults.NONE, socketWire);
        ConcurrentLinkedQueue<String> errors = new ConcurrentLinkedQueue<>();
        try {
            Random random = new Random(seed);
            int[][] plan = new int[ranks][]; // plan[r]: the destination of each of r's data fragments
            int[][] expected = new int[ranks][ranks]; // expected[to][from]
            for (int r = 0; r < ranks; r++) {
                plan[r] = new int[10 + random.nextInt(30)];
                for (int i = 0; i < plan[r].length; i++) {
                    int to = (r + 1 + random.nextInt(ranks - 1)) % ranks;
                    plan[r][i] = to;
                    expected[to][r]++;
                }
            }
            int[][] got = new int[ranks][ranks];
            int[][] barrier = new int[ranks][32];
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                fabric.modules.get(r).setReceiver((from, tag, memory, offset, length) -> {
                    if (tag == DATA) {
                        got[rank][from.rank()]++;
                    } else {
                        barrier[rank][memory.get(ValueLayout.JAVA_INT_UNALIGNED, offset)]++;
                    }
                });
            }
            List<Thread> threads = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                int rank = r;
                long pause = random.nextInt(3);
                threads.add(Thread.ofPlatform().name("rank " + r).start(() -> {
                    VerbsBtlModule module = fabric.modules.get(rank);
                    List<BtlEndpoint> endpoints = fabric.endpoints.get(rank);
                    long deadline = System.nanoTime() + 20_000_000_000L;
                    String step = "traffic";
                    try {
                        MemorySegment header = MemorySegment.ofArray(new byte[8]);
                        for (int to : plan[rank]) {
                            MemorySegment payload = MemorySegment.ofArray(new byte[(to * 131 + rank * 17) % 900]);
                            while (!module.send(endpoints.get(to), DATA, header, payload)) {
                                progress(module, deadline, step);
                            }
                        }
                        step = "arrivals";
                        while (!java.util.Arrays.equals(got[rank], expected[rank])) {
                            progress(module, deadline, step);
                        }
                        // MPI.Finalize: flush, barrier, flush, then finish.
                        step = "flush";
                        while (module.hasPendingSends()) {
                            progress(module, deadline, step);
                        }
                        Thread.sleep(pause);
                        int round = 0;
                        for (int distance = 1; distance < ranks; distance <<= 1, round++) {
                            step = "barrier round " + round;
                            MemorySegment roundHeader = MemorySegment.ofArray(new int[] {round, 0});
                            while (!module.send(endpoints.get((rank + distance) % ranks), BARRIER, roundHeader,
                                    MemorySegment.NULL)) {
                                progress(module, deadline, step);
                            }
                            while (barrier[rank][round] == 0) {
                                progress(module, deadline, step);
                            }
                        }
                        step = "second flush";
                        while (module.hasPendingSends()) {
                            progress(module, deadline, step);
                        }
                        step = "finalize";
                        module.finalizeModule();
                    } catch (Throwable e) {
                        errors.add("rank " + rank + " at " + step + ": " + e);
                    }
                }));
            }
            for (Thread thread : threads) {
                if (!thread.join(java.time.Duration.ofSeconds(40))) {
                    errors.add(thread.getName() + " did not end within 40 s");
                }
            }
        } finally {
            fabric.removeDirectory();
        }
        return List.copyOf(errors);
    }

    private static void progress(VerbsBtlModule module, long deadline, String step) {
        module.progress();
        if (System.nanoTime() > deadline) {
            throw new AssertionError("stuck for 20 s at " + step + ": " + module.describeConnections());
        }
    }
}
