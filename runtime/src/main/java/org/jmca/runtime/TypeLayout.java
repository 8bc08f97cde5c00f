package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;

/**
 * The compiled layout of a datatype: its bytes as blocks (offset from the element's start,
 * length), in the type map's order, adjacent blocks merged, with the element's lower bound and
 * extent. Packing copies block by block, never element by element of the base type. Apart from
 * the blocks, the sizes of the basic elements one element holds, in order, as runs of equal size
 * ({@code basicSizes[i]} bytes, {@code basicCounts[i]} times): what MPI_Get_elements counts.
 */
public record TypeLayout(long[] offsets, long[] lengths, long size, long lb, long extent, int[] basicSizes,
                         long[] basicCounts) {

    /** One block of {@code size} bytes at 0, one basic element: a predefined type. */
    public static TypeLayout primitive(int size) {
        return new TypeLayout(new long[] {0}, new long[] {size}, size, 0, size, new int[] {size}, new long[] {1});
    }

    /** The same blocks, made of these basic elements (a pair type: its value, then its int index). */
    public TypeLayout withBasics(int... sizes) {
        Builder runs = new Builder();
        for (int s : sizes) {
            runs.basic(s, 1);
        }
        return new TypeLayout(offsets, lengths, size, lb, extent, Arrays.copyOf(runs.basicSizes, runs.runs),
                Arrays.copyOf(runs.basicCounts, runs.runs));
    }

    /**
     * The basic elements in the first {@code bytes} of a message of this type, or -1 if they end
     * inside one (MPI_UNDEFINED for MPI_Get_elements).
     */
    public long basicElements(long bytes) {
        if (size == 0) {
            return bytes == 0 ? 0 : -1;
        }
        long count = bytes / size * basicPerElement();
        long rest = bytes % size;
        for (int i = 0; i < basicSizes.length && rest > 0; i++) {
            long whole = Math.min(basicCounts[i], rest / basicSizes[i]);
            count += whole;
            rest -= whole * basicSizes[i];
            if (whole < basicCounts[i]) {
                break;
            }
        }
        return rest == 0 ? count : -1;
    }

    private long basicPerElement() {
        long perElement = 0;
        for (long c : basicCounts) {
            perElement += c;
        }
        return perElement;
    }

    /** The bytes of the first {@code elements} basic elements of a message of this type. */
    public long bytesOfBasicElements(long elements) {
        long perElement = basicPerElement();
        if (perElement == 0) {
            return 0;
        }
        long bytes = elements / perElement * size;
        long rest = elements % perElement;
        for (int i = 0; i < basicSizes.length && rest > 0; i++) {
            long n = Math.min(basicCounts[i], rest);
            bytes += n * basicSizes[i];
            rest -= n;
        }
        return bytes;
    }

    /** Whether {@code count} elements are one run of bytes from offset 0, so a buffer can be used as it is. */
    public boolean contiguous() {
        return offsets.length == 1 && offsets[0] == 0 && lengths[0] == extent && lb == 0;
    }

    public long trueLb() {
        long low = Long.MAX_VALUE;
        for (long o : offsets) {
            low = Math.min(low, o);
        }
        return offsets.length == 0 ? 0 : low;
    }

    public long trueExtent() {
        long high = Long.MIN_VALUE;
        for (int i = 0; i < offsets.length; i++) {
            high = Math.max(high, offsets[i] + lengths[i]);
        }
        return offsets.length == 0 ? 0 : high - trueLb();
    }

    /** The bytes {@code count} elements span from the buffer's start: what the buffer must hold. */
    public long span(int count) {
        return count == 0 || offsets.length == 0 ? 0 : (count - 1) * extent + trueLb() + trueExtent();
    }

    /** Copies {@code count} elements from {@code user} (laid out) into {@code packed} (contiguous). */
    public void pack(MemorySegment user, int count, MemorySegment packed) {
        long at = 0;
        for (int e = 0; e < count; e++) {
            long base = e * extent;
            for (int b = 0; b < offsets.length; b++) {
                MemorySegment.copy(user, base + offsets[b], packed, at, lengths[b]);
                at += lengths[b];
            }
        }
    }

    /** Copies {@code count} elements from {@code packed} into {@code user}, laid out; stops after {@code bytes}. */
    public void unpack(MemorySegment packed, long bytes, MemorySegment user, int count) {
        long at = 0;
        for (int e = 0; e < count && at < bytes; e++) {
            long base = e * extent;
            for (int b = 0; b < offsets.length && at < bytes; b++) {
                long n = Math.min(lengths[b], bytes - at);
                MemorySegment.copy(packed, at, user, base + offsets[b], n);
                at += n;
            }
        }
    }

    /** A type map being built: blocks appended in order, adjacent ones merged. */
    public static final class Builder {
        private long[] offsets = new long[8];
        private long[] lengths = new long[8];
        private int blocks;
        private long size;
        private long lb = Long.MAX_VALUE;
        private long ub = Long.MIN_VALUE;
        private int[] basicSizes = new int[4];
        private long[] basicCounts = new long[4];
        private int runs;

        /** {@code count} elements of {@code type} one after another from byte {@code displacement}. */
        public Builder add(long displacement, long count, TypeLayout type) {
            if (count == 0) {
                return this;
            }
            lb = Math.min(lb, displacement + type.lb);
            ub = Math.max(ub, displacement + (count - 1) * type.extent + type.lb + type.extent);
            for (long e = 0; e < count; e++) {
                long base = displacement + e * type.extent;
                for (int b = 0; b < type.offsets.length; b++) {
                    block(base + type.offsets[b], type.lengths[b]);
                }
            }
            if (type.basicSizes.length == 1) {
                basic(type.basicSizes[0], type.basicCounts[0] * count);
            } else {
                for (long e = 0; e < count; e++) {
                    for (int i = 0; i < type.basicSizes.length; i++) {
                        basic(type.basicSizes[i], type.basicCounts[i]);
                    }
                }
            }
            return this;
        }

        /** {@code count} more basic elements of {@code size} bytes, in the run before if it has that size. */
        private void basic(int size, long count) {
            if (runs > 0 && basicSizes[runs - 1] == size) {
                basicCounts[runs - 1] += count;
                return;
            }
            if (runs == basicSizes.length) {
                basicSizes = Arrays.copyOf(basicSizes, runs * 2);
                basicCounts = Arrays.copyOf(basicCounts, runs * 2);
            }
            basicSizes[runs] = size;
            basicCounts[runs] = count;
            runs++;
        }

        private void block(long offset, long length) {
            size += length;
            if (blocks > 0 && offsets[blocks - 1] + lengths[blocks - 1] == offset) {
                lengths[blocks - 1] += length;
                return;
            }
            if (blocks == offsets.length) {
                offsets = Arrays.copyOf(offsets, blocks * 2);
                lengths = Arrays.copyOf(lengths, blocks * 2);
            }
            offsets[blocks] = offset;
            lengths[blocks] = length;
            blocks++;
        }

       public  TypeLayout build() {
            long low = lb == Long.MAX_VALUE ? 0 : lb;
            long high = ub == Long.MIN_VALUE ? 0 : ub;
            return new TypeLayout(Arrays.copyOf(offsets, blocks), Arrays.copyOf(lengths, blocks), size, low,
                    high - low, Arrays.copyOf(basicSizes, runs), Arrays.copyOf(basicCounts, runs));
        }
    }

    /** The same type map {@code bytes} further on: for a buffer that begins {@code bytes} earlier. */
    public TypeLayout movedBy(long bytes) {
        long[] moved = offsets.clone();
        for (int i = 0; i < moved.length; i++) {
            moved[i] += bytes;
        }
        return new TypeLayout(moved, lengths, size, lb + bytes, extent, basicSizes, basicCounts);
    }

    /** The same blocks with another lower bound and extent (MPI_Type_create_resized). */
    public TypeLayout resized(long newLb, long newExtent) {
        return new TypeLayout(offsets, lengths, size, newLb, newExtent, basicSizes, basicCounts);
    }
}
