package org.jmca.pml.ob1;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmca.mca.McaException;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;

/**
 * Fuzzes ob1's fragment headers (MATCH, RNDV, ACK, FRAG, FIN, PUT_FIN) as a BTL hands them over:
 * a valid header with one field wrong (a source, a length, an offset, a request id), cut short
 * at any byte, with a wrong tag, or random bytes. Each fragment is read from a segment exactly its
 * size, so a read past it would throw; what comes out is nothing or an {@link McaException} naming
 * the sender, and messages on a communicator the fuzzer does not touch still arrive intact after it.
 */
class Ob1HeaderFuzzTest {
    /** The communicator the fuzzer's MATCH and RNDV fragments never name: the job's own traffic. */
    private static final int CTX = 0;

    @Provide
    Arbitrary<Fragment> fragments() {
        Arbitrary<Byte> tag = Arbitraries.oneOf(Arbitraries.bytes().between((byte) 1, (byte) 6), Arbitraries.bytes());
        Arbitrary<Integer> context = Arbitraries.integers().between(1, 5);
        Arbitrary<Integer> source = Arbitraries.oneOf(Arbitraries.integers().between(0, 1),
                Arbitraries.of(-1, 2, Integer.MAX_VALUE, Integer.MIN_VALUE));
        Arbitrary<Long> field = Arbitraries.oneOf(Arbitraries.longs().between(0, 4096),
                Arbitraries.of(-1L, Long.MIN_VALUE, Long.MAX_VALUE, 1L << 40));
        Arbitrary<Integer> length = Arbitraries.integers().between(0, 96);
        return Combinators.combine(tag, context, source, field.list().ofSize(5), length, Arbitraries.longs())
                .as((t, c, s, fields, n, seed) -> {
                    byte[] bytes = new byte[n];
                    new Random(seed).nextBytes(bytes);
                    MemorySegment f = MemorySegment.ofArray(bytes);
                    if (n >= 16) {
                        f.set(ValueLayout.JAVA_LONG_UNALIGNED, 0, (long) c << 32 | (s & 0xffffffffL));
                        f.set(ValueLayout.JAVA_LONG_UNALIGNED, 8, (long) 7 << 32 | (fields.get(0) & 0xffff));
                    }
                    for (int i = 0; i < 5 && 16 + 8 * (i + 1) <= n; i++) {
                        f.set(ValueLayout.JAVA_LONG_UNALIGNED, 16 + 8L * i, fields.get(i));
                    }
                    if (t != Ob1Header.TAG_MATCH && t != Ob1Header.TAG_RNDV && n >= 24) {
                        // ACK, FRAG, FIN and PUT_FIN start with a request id, then the fields
                        for (int i = 0; i < 3; i++) {
                            f.set(ValueLayout.JAVA_LONG_UNALIGNED, 8L * i, fields.get(i));
                        }
                    }
                    return new Fragment(t, bytes);
                });
    }

    record Fragment(byte tag, byte[] bytes) {
        @Override
        public String toString() {
            return "tag " + tag + ", " + bytes.length + " bytes " + java.util.HexFormat.of().formatHex(bytes);
        }
    }

    @Property(tries = 300)
    void aCorruptFragmentIsAnMpiErrorAndTheJobsOwnTrafficGoesOn(@ForAll("fragments") Fragment fragment,
                                                                @ForAll boolean rendezvous) {
        LoopbackNetwork net = new LoopbackNetwork(2, 256, 1024, new Random(1), 0.0, false);
        // a rendezvous under way when the fragment comes: an ACK or a FRAG may name its requests
        byte[] message = new byte[rendezvous ? 3000 : 100];
        new Random(2).nextBytes(message);
        MemorySegment into = MemorySegment.ofArray(new byte[message.length]);
        PmlRequest recv = pml(net, 1).irecv(into, 0, 9, CTX);
        PmlRequest send = pml(net, 0).isend(MemorySegment.ofArray(message), 1, 9, CTX, SendMode.STANDARD);
        net.progress(0);
        try {
            net.inject(1, 0, fragment.tag(), MemorySegment.ofArray(fragment.bytes()));
        } catch (McaException e) {
            assertThat(e.getMessage()).startsWith("pml/ob1: rank 1 got");
        }
        net.runUntil(() -> recv.isComplete() && send.isComplete());
        assertThat(into.toArray(ValueLayout.JAVA_BYTE)).isEqualTo(message);
    }

    private static PmlModule pml(LoopbackNetwork net, int rank) {
        return net.pmls.get(rank);
    }
}
