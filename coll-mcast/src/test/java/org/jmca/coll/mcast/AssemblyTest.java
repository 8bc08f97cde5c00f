package org.jmca.coll.mcast;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.jmca.mca.McaException;
import org.junit.jupiter.api.Test;

class AssemblyTest {

    private static ByteBuffer fragment(byte[] message, int offset, int length) {
        return ByteBuffer.wrap(message, offset, length).slice();
    }

    @Test
    void fragmentsInAnyOrderMakeTheMessageAndARepeatIsRefused() {
        byte[] message = new byte[10];
        for (int i = 0; i < message.length; i++) {
            message[i] = (byte) (i + 1);
        }
        Assembly assembly = new Assembly(10, 4);
        assertThat(assembly.add(8, fragment(message, 8, 2))).isTrue();
        assertThat(assembly.firstMissing()).isZero();
        assertThat(assembly.add(0, fragment(message, 0, 4))).isTrue();
        assertThat(assembly.add(0, fragment(message, 0, 4))).isFalse();
        assertThat(assembly.complete()).isFalse();
        assertThat(assembly.firstMissing()).isEqualTo(4);
        assertThat(assembly.add(4, fragment(message, 4, 4))).isTrue();
        assertThat(assembly.complete()).isTrue();
        byte[] out = new byte[10];
        assembly.copyTo(MemorySegment.ofArray(out), 0);
        assertThat(out).isEqualTo(message);
    }

    @Test
    void aMessageOfAnotherLengthThanTheCallsBufferIsAnErrorNamingBoth() {
        Assembly assembly = new Assembly(8, 512);
        assembly.add(0, ByteBuffer.allocate(8));
        assertThatThrownBy(() -> assembly.copyTo(MemorySegment.ofArray(new byte[63]), 5))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("rank 5").hasMessageContaining("8 bytes").hasMessageContaining("has 63");
    }
}
