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
    void copiesBetweenNativeAndHeapMemoryOnBothSidesOfTheThreshold() {
        try (Arena arena = Arena.ofConfined()) {
            for (long size : new long[] {0, 1, BulkCopy.NATIVE_FROM - 1, BulkCopy.NATIVE_FROM, 100_003}) {
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
    }
}
