package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * Fuzzes the reassembly of a multicast message from datagrams whose offset and length nobody
 * vouches for (UDP carries them; another job's or a garbled datagram may say anything): the real
 * fragments in any order, mixed with fragments at an offset that is no fragment's, of a wrong
 * length, overlapping, or near the largest int. Nothing throws, a wrong fragment is refused, and
 * the message assembled is the one sent, byte for byte.
 */
class AssemblyFuzzTest {

    record Wrong(int offset, int length) {
    }

    @Provide
    Arbitrary<List<Wrong>> wrongOnes() {
        Arbitrary<Integer> offset = Arbitraries.oneOf(Arbitraries.integers().between(-8, 600),
                Arbitraries.of(Integer.MAX_VALUE, Integer.MAX_VALUE - 3, Integer.MIN_VALUE));
        Arbitrary<Integer> length = Arbitraries.integers().between(0, 80);
        return Combinators.combine(offset, length).as(Wrong::new).list().ofMaxSize(8);
    }

    @Property(tries = 500)
    void theMessageAssembledIsTheOneSentWhateverElseCame(@ForAll @IntRange(min = 0, max = 500) int total,
                                                        @ForAll @IntRange(min = 1, max = 64) int fragmentBytes,
                                                        @ForAll("wrongOnes") List<Wrong> wrongOnes,
                                                        @ForAll long seed) {
        Random random = new Random(seed);
        byte[] message = new byte[total];
        random.nextBytes(message);
        List<Runnable> arrivals = new ArrayList<>();
        Assembly assembly = new Assembly(total, fragmentBytes);
        List<Boolean> realAccepted = new ArrayList<>();
        for (int offset = 0; offset < total || offset == 0 && total == 0; offset += fragmentBytes) {
            int at = offset;
            int length = Math.min(fragmentBytes, total - offset);
            arrivals.add(() -> realAccepted.add(assembly.add(at, ByteBuffer.wrap(message, at, length).slice())));
            if (total == 0) {
                break;
            }
        }
        for (Wrong wrong : wrongOnes) {
            byte[] garbage = new byte[wrong.length()];
            random.nextBytes(garbage);
            arrivals.add(() -> assembly.add(wrong.offset(), ByteBuffer.wrap(garbage)));
        }
        Collections.shuffle(arrivals, random);
        arrivals.forEach(Runnable::run); // a throw fails the property

        // a wrong fragment shaped as a real one (its place and size) is taken for it: only UDP's
        // checksum and the job's number guard against that; any other is refused
        boolean shapedAsAReal = wrongOnes.stream().anyMatch(w -> w.offset() >= 0 && w.offset() % fragmentBytes == 0
                && (w.offset() < total || total == 0 && w.offset() == 0)
                && w.length() == Math.min(fragmentBytes, total - w.offset()));
        assertThat(assembly.complete()).as("complete").isTrue();
        if (!shapedAsAReal) {
            assertThat(realAccepted).containsOnly(true);
            byte[] out = new byte[total];
            assembly.copyTo(MemorySegment.ofArray(out), 0);
            assertThat(out).isEqualTo(message);
        }
    }
}
