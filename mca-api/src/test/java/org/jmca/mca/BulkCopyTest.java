package org.jmca.mca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import org.junit.jupiter.api.Test;

class BulkCopyTest {

    private static MemorySegment pattern(MemorySegment segment) {
        for (long i = 0; i < segment.byteSize(); i++) {
            segment.set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 3));
        }
        return segment;
    }

    @Test
    void copiesBetweenNativeAndHeapMemoryOnBothSidesOfTheSmallThreshold() {
        try (Arena arena = Arena.ofConfined()) {
            for (long size : new long[] {0, 1, BulkCopy.SMALL_UP_TO, BulkCopy.SMALL_UP_TO + 1, 4096, 100_003}) {
                MemorySegment[] sources = {pattern(arena.allocate(size + 10)), pattern(MemorySegment.ofArray(new byte[(int) size + 10]))};
                for (MemorySegment source : sources) {
                    MemorySegment[] targets = {arena.allocate(size + 20), MemorySegment.ofArray(new byte[(int) size + 20])};
                    for (MemorySegment target : targets) {
                        BulkCopy.copy(source, 5, target, 7, size);
                        assertThat(target.asSlice(7, size).toArray(ValueLayout.JAVA_BYTE)).as("size %d", size)
                                .isEqualTo(source.asSlice(5, size).toArray(ValueLayout.JAVA_BYTE));
                        assertThat(target.get(ValueLayout.JAVA_BYTE, 6)).as("byte before the target range").isZero();
                        assertThat(target.get(ValueLayout.JAVA_BYTE, 7 + size)).as("byte after it").isZero();
                    }
                }
            }
        }
    }

    @Test
    void everySmallSizeCopiesExactlyItsBytesAtAnyAlignment() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment[] sources = {pattern(arena.allocate(64)), pattern(MemorySegment.ofArray(new byte[64]))};
            for (MemorySegment source : sources) {
                for (int size = 0; size <= BulkCopy.SMALL_UP_TO + 1; size++) {
                    for (int shift = 0; shift < 8; shift++) {
                        MemorySegment target = MemorySegment.ofArray(new byte[64]);
                        BulkCopy.copy(source, 3 + shift, target, 9, size);
                        byte[] expected = new byte[64];
                        MemorySegment.copy(source, 3 + shift, MemorySegment.ofArray(expected), 9, size);
                        assertThat(target.toArray(ValueLayout.JAVA_BYTE)).as("size %d from offset %d", size, 3 + shift)
                                .isEqualTo(expected);
                    }
                }
            }
        }
    }

    @Test
    void smallOverlappingRangesAreCopiedAsIfThroughATemporary() {
        for (int size = 1; size <= BulkCopy.SMALL_UP_TO; size++) {
            for (int shift : new int[] {-3, -1, 1, 3}) {
                MemorySegment segment = pattern(MemorySegment.ofArray(new byte[64]));
                byte[] expected = segment.asSlice(20, size).toArray(ValueLayout.JAVA_BYTE);
                BulkCopy.copy(segment, 20, segment, 20 + shift, size);
                assertThat(segment.asSlice(20 + shift, size).toArray(ValueLayout.JAVA_BYTE))
                        .as("size %d shifted by %d", size, shift).isEqualTo(expected);
            }
        }
    }

    @Test
    void overlappingRangesAreCopiedAsIfThroughATemporary() {
        MemorySegment segment = pattern(MemorySegment.ofArray(new byte[20_000]));
        byte[] expected = segment.asSlice(0, 10_000).toArray(ValueLayout.JAVA_BYTE);
        BulkCopy.copy(segment, 0, segment, 100, 10_000);
        assertThat(segment.asSlice(100, 10_000).toArray(ValueLayout.JAVA_BYTE)).isEqualTo(expected);
    }

    @Test
    void boundsAndReadOnlyTargetsAreCheckedAsByMemorySegmentCopy() {
        MemorySegment source = MemorySegment.ofArray(new byte[10_000]);
        assertThatThrownBy(() -> BulkCopy.copy(source, 0, MemorySegment.ofArray(new byte[8_000]), 0, 10_000))
                .isInstanceOf(IndexOutOfBoundsException.class);
        MemorySegment readOnly = MemorySegment.ofBuffer(ByteBuffer.allocateDirect(10_000).asReadOnlyBuffer());
        assertThatThrownBy(() -> BulkCopy.copy(source, 0, readOnly, 0, 10_000))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkCopy.copy(source, 0, MemorySegment.ofArray(new byte[4]), 0, 8))
                .as("a small copy past the target's end").isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> BulkCopy.copy(source, 9_996, MemorySegment.ofArray(new byte[8]), 0, 8))
                .as("a small copy past the source's end").isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> BulkCopy.copy(source, 0, readOnly, 0, 8))
                .as("a small copy into a read-only segment").isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> BulkCopy.copy(source, 0, MemorySegment.ofArray(new byte[8]), 0, -1))
                .as("a negative size").isInstanceOf(IndexOutOfBoundsException.class);
    }
}
