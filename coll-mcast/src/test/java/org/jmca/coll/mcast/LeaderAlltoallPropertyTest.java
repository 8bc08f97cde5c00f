package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.coll.CollCall;

/**
 * The leaders' three-phase alltoall, ranks as threads: every block lands where MPI_Alltoall puts
 * it, for random rank counts, hosts, block and cyclic placements, block sizes, and in place.
 */
class LeaderAlltoallPropertyTest {

    private static byte value(int from, int to, int index) {
        return (byte) (from * 37 + to * 11 + index);
    }

    @Property(tries = 200)
    void everyBlockGoesFromItsSourceToItsDestination(@ForAll @IntRange(min = 2, max = 9) int size,
                                                     @ForAll @IntRange(min = 1, max = 4) int hosts,
                                                     @ForAll boolean cyclic, @ForAll boolean inPlace,
                                                     @ForAll @IntRange(min = 1, max = 300) int block)
            throws InterruptedException {
        String[] names = new String[size];
        int perHost = (size + hosts - 1) / hosts;
        for (int r = 0; r < size; r++) {
            names[r] = "host" + (cyclic ? r % hosts : r / perHost);
        }
        McastSettings settings = new McastSettings(Reliability.ACK, 0, 32, 10, 0, 65536, 8192, 1_000_000L, 200_000L,
                true, 800_000L, 64, 2048, FaultInjection.Rates.NONE);
        ThreadRanks fabric = new ThreadRanks("alltoall");
        int[] jobRanks = java.util.stream.IntStream.range(0, size).toArray();
        ConcurrentLinkedQueue<String> failures = new ConcurrentLinkedQueue<>();
        List<Thread> threads = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            int me = rank;
            threads.add(Thread.ofPlatform().start(() -> {
                byte[] send = new byte[block * size];
                byte[] recv = new byte[block * size];
                byte[] source = inPlace ? recv : send;
                for (int to = 0; to < size; to++) {
                    for (int i = 0; i < block; i++) {
                        source[to * block + i] = value(me, to, i);
                    }
                }
                CollCall call = CollCall.of(inPlace ? null : MemorySegment.ofArray(send), MemorySegment.ofArray(recv),
                        block, 1, 0, null, 7);
                LeaderAlltoall alltoall = new LeaderAlltoall(fabric.communicator(3, me, jobRanks, names),
                        new Topology(names, settings), call);
                long deadline = System.nanoTime() + 10_000_000_000L;
                while (!alltoall.test()) {
                    if (System.nanoTime() > deadline) {
                        failures.add("rank " + me + ": no progress for 10 s");
                        return;
                    }
                    Thread.yield();
                }
                for (int from = 0; from < size; from++) {
                    for (int i = 0; i < block; i++) {
                        if (recv[from * block + i] != value(from, me, i)) {
                            failures.add("rank " + me + ": byte " + i + " of the block from " + from + " is wrong");
                            return;
                        }
                    }
                }
            }));
        }
        for (Thread thread : threads) {
            thread.join();
        }
        assertThat(failures).as("on hosts %s", List.of(names)).isEmpty();
    }
}
