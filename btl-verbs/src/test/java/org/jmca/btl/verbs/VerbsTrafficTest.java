package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;
import org.jmca.mca.btl.BtlEndpoint;

/**
 * Random traffic between random pairs, with a random connection limit and tear-down policy and
 * a lossy connection manager, between ports on one host or over the socket wire: every fragment
 * arrives exactly once, and each sender's fragments arrive in the order sent (what MPI's
 * ordering rests on).
 */
class VerbsTrafficTest {

    @Property(tries = 100)
    void everythingArrivesOnceAndInOrderWhateverTheConnectionLimit(
            @ForAll @IntRange(min = 2, max = 6) int ranks,
            @ForAll @IntRange(min = 0, max = 3) int maxConnections,
            @ForAll boolean lruM,
            @ForAll @IntRange(min = 0, max = 30) int lossPercent,
            @ForAll @LongRange(min = 0, max = 1L << 40) long seed,
            @ForAll boolean socketWire) {
        VerbsSettings settings = SoftFabric.settings(maxConnections, lruM ? VictimPolicy.LRU_M : VictimPolicy.LRU);
        try (SoftFabric fabric = new SoftFabric(ranks, settings, new SoftFaults(seed, lossPercent / 100.0, 0.05, 0.05),
                socketWire)) {
            // arrivals[receiver]: (sender << 32 | sequence number) in the order they came
            List<List<Long>> arrivals = new ArrayList<>();
            for (int r = 0; r < ranks; r++) {
                List<Long> mine = new ArrayList<>();
                arrivals.add(mine);
                fabric.modules.get(r).setReceiver((from, tag, memory, offset, length) -> {
                    assertThat(tag).isEqualTo((byte) (from.rank() + 1));
                    int sequence = memory.get(ValueLayout.JAVA_INT_UNALIGNED, offset);
                    assertThat(length).isEqualTo(4 + sequence % 700);
                    mine.add((long) from.rank() << 32 | sequence);
                });
            }
            Random random = new Random(seed);
            int[][] sent = new int[ranks][ranks];
            int messages = 400;
            long deadline = System.nanoTime() + 30_000_000_000L;
            for (int i = 0; i < messages; i++) {
                int from = random.nextInt(ranks);
                int to = (from + 1 + random.nextInt(ranks - 1)) % ranks;
                int sequence = sent[from][to];
                MemorySegment fragment = MemorySegment.ofArray(new byte[4 + sequence % 700]);
                fragment.set(ValueLayout.JAVA_INT_UNALIGNED, 0, sequence);
                BtlEndpoint endpoint = fabric.endpoints.get(from).get(to);
                while (!fabric.modules.get(from).send(endpoint, (byte) (from + 1), fragment, MemorySegment.NULL)) {
                    fabric.modules.get(random.nextInt(ranks)).progress();
                    if (System.nanoTime() > deadline) {
                        throw new AssertionError("send " + i + " from rank " + from + " to rank " + to
                                + " stuck for 30 s; connections:\n" + fabric.describeConnections());
                    }
                }
                sent[from][to]++;
                for (int k = random.nextInt(3); k > 0; k--) {
                    fabric.modules.get(random.nextInt(ranks)).progress();
                }
            }
            VerbsBtlContractTest.progressUntil(fabric, () -> arrivals.stream().mapToInt(List::size).sum() == messages);
            for (int to = 0; to < ranks; to++) {
                for (int from = 0; from < ranks; from++) {
                    int sender = from;
                    List<Long> fromSender = arrivals.get(to).stream().filter(a -> a >>> 32 == sender)
                            .map(a -> a & 0xFFFF_FFFFL).toList();
                    assertThat(fromSender).as("rank %d from rank %d", to, from)
                            .containsExactlyElementsOf(java.util.stream.LongStream.range(0, sent[from][to]).boxed().toList());
                }
            }
            if (maxConnections > 0) {
                // Accepting a peer's request may pass the limit for a while; then the process tears down.
                VerbsBtlContractTest.progressUntil(fabric, () -> fabric.modules.stream().allMatch(m ->
                        VerbsBtlContractTest.counter(m, "btl_verbs_open_connections") <= maxConnections));
            }
        }
    }
}
