package org.jmca.pml.ob1;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * For random interleavings of sends, (wildcard) receives and progress among 2–4 ranks, with a
 * network that pushes back at random and may deliver out of order: every message is delivered at most once and intact,
 * nothing a pending receive could take is left unmatched, and messages from one sender are
 * matched in the order they were sent (MPI's non-overtaking rule).
 */
class NonOvertakingPropertyTest {
    private static final int CTX = 1;
    /** Message header in the payload: sender, per-sender sequence, length. */
    private static final int STAMP = 12;

    private record Sent(int source, int dest, int tag, int seq, int length, PmlRequest request) { }

    private record Posted(int rank, int source, int tag, int order, MemorySegment buffer, PmlRequest request) { }

    @Property(tries = 100)
    void matchingObeysNonOvertaking(@ForAll @IntRange(min = 2, max = 4) int size, @ForAll long seed,
                                    @ForAll @IntRange(min = 1, max = 60) int messages, @ForAll boolean reorder) {
        Random random = new Random(seed);
        LoopbackNetwork net = new LoopbackNetwork(size, 128, 512, random, 0.2, reorder);
        List<Sent> sent = new ArrayList<>();
        List<Posted> posted = new ArrayList<>();
        int[] seqOf = new int[size];
        int sends = 0;
        int receives = 0;
        while (sends < messages || receives < messages) {
            int action = random.nextInt(3);
            if (action == 0 && sends < messages) {
                int source = random.nextInt(size);
                int dest = random.nextInt(size);
                int tag = random.nextInt(3);
                int length = STAMP + random.nextInt(random.nextBoolean() ? 40 : 1500);
                MemorySegment data = MemorySegment.ofArray(new byte[length]);
                int seq = seqOf[source]++;
                data.set(ValueLayout.JAVA_INT_UNALIGNED, 0, source);
                data.set(ValueLayout.JAVA_INT_UNALIGNED, 4, seq);
                data.set(ValueLayout.JAVA_INT_UNALIGNED, 8, length);
                for (int i = STAMP; i < length; i++) {
                    data.set(ValueLayout.JAVA_BYTE, i, (byte) (seq * 7 + i));
                }
                SendMode mode = random.nextInt(5) == 0 ? SendMode.SYNCHRONOUS : SendMode.STANDARD;
                sent.add(new Sent(source, dest, tag, seq, length, net.pmls.get(source).isend(data, dest, tag, CTX, mode)));
                sends++;
            } else if (action == 1 && receives < messages) {
                int rank = random.nextInt(size);
                int source = random.nextBoolean() ? PmlModule.ANY_SOURCE : random.nextInt(size);
                int tag = random.nextBoolean() ? PmlModule.ANY_TAG : random.nextInt(3);
                MemorySegment buffer = MemorySegment.ofArray(new byte[STAMP + 1500]);
                posted.add(new Posted(rank, source, tag, receives, buffer,
                        net.pmls.get(rank).irecv(buffer, source, tag, CTX)));
                receives++;
            } else {
                net.progress(random.nextInt(size));
            }
        }
        net.quiesce();
        check(sent, posted, net, size);
    }

    private static void check(List<Sent> sent, List<Posted> posted, LoopbackNetwork net, int size) {
        boolean[] delivered = new boolean[sent.size()];
        List<Posted> completed = new ArrayList<>();
        for (Posted p : posted) {
            if (!p.request().isComplete()) {
                // Nothing still waiting as unexpected may match a receive that never completed.
                assertThat(net.pmls.get(p.rank()).iprobe(p.source(), p.tag(), CTX)).as("missed match").isNull();
                continue;
            }
            completed.add(p);
            int source = p.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0);
            int seq = p.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 4);
            int index = indexOf(sent, source, seq);
            Sent s = sent.get(index);
            assertThat(delivered[index]).as("delivered twice").isFalse();
            delivered[index] = true;
            assertThat(s.dest()).isEqualTo(p.rank());
            assertThat(p.request().status().source()).isEqualTo(s.source());
            assertThat(p.request().status().tag()).isEqualTo(s.tag());
            assertThat(p.request().status().byteCount()).isEqualTo(s.length());
            for (int i = STAMP; i < s.length(); i++) {
                assertThat(p.buffer().get(ValueLayout.JAVA_BYTE, i)).isEqualTo((byte) (seq * 7 + i));
            }
        }
        // Non-overtaking: of two receives at one rank, the earlier-posted one that could take the
        // later one's message must have taken an earlier message from that sender.
        for (Posted first : completed) {
            for (Posted second : completed) {
                if (first.rank() != second.rank() || first.order() >= second.order()) {
                    continue;
                }
                int s1 = first.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                int s2 = second.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 0);
                int tag2 = second.request().status().tag();
                boolean firstCouldTakeSecond = (first.source() == PmlModule.ANY_SOURCE || first.source() == s2)
                        && (first.tag() == PmlModule.ANY_TAG || first.tag() == tag2);
                if (s1 == s2 && firstCouldTakeSecond) {
                    assertThat(first.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 4))
                            .as("non-overtaking from rank %d", s1)
                            .isLessThan(second.buffer().get(ValueLayout.JAVA_INT_UNALIGNED, 4));
                }
            }
        }
        // Nothing is lost: each message not yet delivered is still waiting at its destination, and
        // wildcard receives posted now collect exactly those.
        List<PmlRequest> sweep = new ArrayList<>();
        for (int i = 0; i < sent.size(); i++) {
            if (!delivered[i]) {
                int rank = sent.get(i).dest();
                sweep.add(net.pmls.get(rank).irecv(MemorySegment.ofArray(new byte[STAMP + 1500]),
                        PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, CTX));
            }
        }
        net.runUntil(() -> sweep.stream().allMatch(PmlRequest::isComplete) && sent.stream().allMatch(s -> s.request().isComplete()));
        for (int rank = 0; rank < size; rank++) {
            assertThat(net.pmls.get(rank).iprobe(PmlModule.ANY_SOURCE, PmlModule.ANY_TAG, CTX)).as("extra message").isNull();
        }
    }

    private static int indexOf(List<Sent> sent, int source, int seq) {
        for (int i = 0; i < sent.size(); i++) {
            if (sent.get(i).source() == source && sent.get(i).seq() == seq) {
                return i;
            }
        }
        throw new AssertionError("received a message that was never sent: source " + source + " seq " + seq);
    }
}
