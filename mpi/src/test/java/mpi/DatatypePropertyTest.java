package mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random derived types, nested, against a model of MPI's type maps built byte by byte from the
 * standard's definitions: packing takes exactly the model's bytes in its order, unpacking puts
 * them back there and touches no other byte, and size, extent and bounds agree.
 */
class DatatypePropertyTest {

    /** A type and its model: the byte offsets of one element in type-map order, and its lb and extent. */
    private record Modelled(Datatype type, List<Long> bytes, long lb, long extent) {
        long trueLb() {
            return bytes.stream().mapToLong(Long::longValue).min().orElse(0);
        }

        long trueUb() {
            return bytes.stream().mapToLong(b -> b + 1).max().orElse(0);
        }
    }

    private static Modelled primitive(Datatype type, int size) {
        List<Long> bytes = new ArrayList<>();
        for (long b = 0; b < size; b++) {
            bytes.add(b);
        }
        return new Modelled(type, bytes, 0, size);
    }

    /** {@code count} elements of {@code old} at byte {@code displacement}, appended to {@code out}; returns {lb, ub}. */
    private static long[] place(Modelled old, long displacement, int count, List<Long> out) {
        for (int e = 0; e < count; e++) {
            for (long b : old.bytes()) {
                out.add(displacement + e * old.extent() + b);
            }
        }
        return new long[] {displacement + old.lb(), displacement + (count - 1L) * old.extent() + old.lb() + old.extent()};
    }

    private static Modelled of(Datatype type, List<Long> bytes, List<long[]> bounds) {
        long lb = bounds.stream().mapToLong(b -> b[0]).min().orElse(0);
        long ub = bounds.stream().mapToLong(b -> b[1]).max().orElse(0);
        return new Modelled(type, bytes, lb, ub - lb);
    }

    private static Modelled random(Random random, int depth) throws MPIException {
        if (depth == 0) {
            return switch (random.nextInt(3)) {
                case 0 -> primitive(MPI.BYTE, 1);
                case 1 -> primitive(MPI.INT, 4);
                default -> primitive(MPI.DOUBLE, 8);
            };
        }
        Modelled old = random(random, depth - 1);
        List<Long> bytes = new ArrayList<>();
        List<long[]> bounds = new ArrayList<>();
        switch (random.nextInt(6)) {
            case 0 -> {
                int count = 1 + random.nextInt(4);
                bounds.add(place(old, 0, count, bytes));
                return of(Datatype.createContiguous(count, old.type()), bytes, bounds);
            }
            case 1, 2 -> {
                boolean bytesStride = random.nextBoolean();
                int count = 1 + random.nextInt(4);
                int block = 1 + random.nextInt(3);
                int stride = block + random.nextInt(3);
                long strideBytes = bytesStride ? stride * old.extent() + random.nextInt(3) : stride * old.extent();
                for (int i = 0; i < count; i++) {
                    bounds.add(place(old, i * strideBytes, block, bytes));
                }
                return of(bytesStride ? Datatype.createHVector(count, block, (int) strideBytes, old.type())
                        : Datatype.createVector(count, block, stride, old.type()), bytes, bounds);
            }
            case 3 -> {
                int blocks = 1 + random.nextInt(4);
                int[] lengths = new int[blocks];
                int[] displacements = new int[blocks];
                boolean inBytes = random.nextBoolean();
                for (int i = 0; i < blocks; i++) {
                    lengths[i] = random.nextInt(3);
                    displacements[i] = random.nextInt(12);
                    long at = inBytes ? displacements[i] : displacements[i] * old.extent();
                    if (lengths[i] > 0) {
                        bounds.add(place(old, at, lengths[i], bytes));
                    }
                }
                if (bounds.isEmpty()) {
                    lengths[0] = 1;
                    bounds.add(place(old, inBytes ? displacements[0] : displacements[0] * old.extent(), 1, bytes));
                }
                return of(inBytes ? Datatype.createHIndexed(lengths, displacements, old.type())
                        : Datatype.createIndexed(lengths, displacements, old.type()), bytes, bounds);
            }
            case 4 -> {
                Modelled other = random(random, depth - 1);
                int gap = random.nextInt(5);
                int[] lengths = {1 + random.nextInt(2), 1 + random.nextInt(2)};
                int second = (int) (lengths[0] * old.extent()) + gap;
                bounds.add(place(old, 0, lengths[0], bytes));
                bounds.add(place(other, second, lengths[1], bytes));
                return of(Datatype.createStruct(lengths, new int[] {0, second}, new Datatype[] {old.type(), other.type()}),
                        bytes, bounds);
            }
            default -> {
                long extent = old.extent() + random.nextInt(6);
                return new Modelled(Datatype.createResized(old.type(), 0, (int) extent), old.bytes(), 0, extent);
            }
        }
    }

    @Property(tries = 400)
    void packingTakesTheTypeMapsBytesInOrderAndUnpackingPutsThemBack(@ForAll long seed,
                                                                    @ForAll @IntRange(min = 1, max = 3) int depth,
                                                                    @ForAll @IntRange(min = 0, max = 4) int count)
            throws MPIException {
        Random random = new Random(seed);
        Modelled m = random(random, depth);
        Datatype type = m.type();
        type.commit();
        assertThat(type.getSize()).isEqualTo(m.bytes().size());
        assertThat(type.getExtent()).isEqualTo(m.extent());
        assertThat(type.getLb()).isEqualTo(m.lb());
        assertThat(type.getTrueLb()).isEqualTo(m.trueLb());
        assertThat(type.getTrueExtent()).isEqualTo(m.trueUb() - m.trueLb());

        int span = (int) Math.max(0, (count - 1) * m.extent() + m.trueUb()) + random.nextInt(4);
        byte[] user = new byte[span];
        random.nextBytes(user);
        MemorySegment packed = Datatype.buffer(user, count, type, false).segment();
        List<Long> expected = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            for (long b : m.bytes()) {
                expected.add(e * m.extent() + b);
            }
        }
        assertThat(packed.byteSize()).isEqualTo(expected.size());
        for (int i = 0; i < expected.size(); i++) {
            assertThat(packed.get(java.lang.foreign.ValueLayout.JAVA_BYTE, i))
                    .as("packed byte %d (user byte %d)", i, expected.get(i)).isEqualTo(user[(int) (long) expected.get(i)]);
        }

        byte[] target = new byte[span];
        org.jmca.runtime.UserBuffer receive = Datatype.buffer(target, count, type, true);
        MemorySegment.copy(packed, 0, receive.segment(), 0, packed.byteSize());
        if (receive.afterReceive() != null) {
            receive.afterReceive().run();
        }
        byte[] reference = new byte[span];
        for (long offset : expected) {
            reference[(int) offset] = user[(int) offset];
        }
        assertThat(target).isEqualTo(reference);
    }
}
