package org.jmca.btl.gm;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Tuple;

/**
 * Structure-aware GM packets for the fuzz tests: well-formed ones (a message for the provided
 * buffers, an acknowledgement of no send, a directed send into memory nobody registered) and the
 * same with one field wrong.
 */
final class GmPackets {
    /** The size class of the buffers the tests provide (4088 bytes). */
    static final int SIZE = 12;
    static final long CARRIES_DATA = 1L << 41;

    private GmPackets() {
    }

    /**
     * @param headerBytes for a record shorter than the packet header: its length (else -1)
     * @param broken      what is wrong with it, or null
     */
    record Packet(byte kind, long sendId, long word, byte[] payload, int headerBytes, String broken) {
        boolean isMessage() {
            return broken == null && kind == EmulatedGmPort.MESSAGE;
        }

        /** What a message puts in the receive buffer: the length its word says (at most its payload). */
        byte[] delivered() {
            return java.util.Arrays.copyOf(payload, (int) (word & 0xFFFF_FFFFL));
        }

        @Override
        public String toString() {
            return (broken == null ? "valid" : broken) + " kind " + kind + " word 0x" + Long.toHexString(word) + " with "
                    + payload.length + " bytes";
        }
    }

    static Arbitrary<Packet> packets(boolean overWire) {
        Arbitrary<byte[]> bytes = Arbitraries.bytes().array(byte[].class).ofMaxSize(300);
        Arbitrary<Long> anyLong = Arbitraries.longs();
        long carries = overWire ? CARRIES_DATA : 0;
        Arbitrary<Packet> message = bytes.map(data -> new Packet(EmulatedGmPort.MESSAGE, 1, data.length | (long) SIZE << 32
                | carries, data, -1, null));
        Arbitrary<Packet> ack = Combinators.combine(anyLong, Arbitraries.longs().between(0, 2))
                .as((id, status) -> new Packet(EmulatedGmPort.ACK, id, status, new byte[0], -1, null));
        Arbitrary<Packet> directed = Combinators.combine(anyLong, anyLong, Arbitraries.longs().between(0, 1000))
                .as((target, source, length) -> new Packet(EmulatedGmPort.DIRECTED, 2, carries,
                        directed(target, source, length, overWire ? length.intValue() : 0), -1, null));
        Arbitrary<Packet> unknownKind = Combinators.combine(Arbitraries.oneOf(Arbitraries.bytes().between((byte) 4,
                Byte.MAX_VALUE), Arbitraries.bytes().between(Byte.MIN_VALUE, (byte) -2)), anyLong, bytes)
                .as((kind, word, data) -> new Packet(kind, 3, word, data, -1, "unknown kind"));
        Arbitrary<Packet> badStatus = Arbitraries.oneOf(Arbitraries.longs().lessOrEqual(-1), Arbitraries.longs().greaterOrEqual(3))
                .map(status -> new Packet(EmulatedGmPort.ACK, 4, status, new byte[0], -1, "status"));
        Arbitrary<Packet> badSize = Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().between(0, 3),
                Arbitraries.integers().between(32, 255)), bytes)
                .as((size, data) -> new Packet(EmulatedGmPort.MESSAGE, 5, data.length | (long) size << 32 | carries, data,
                        -1, "size class"));
        Arbitrary<Packet> badLength = Combinators.combine(Arbitraries.oneOf(Arbitraries.integers().lessOrEqual(-1),
                Arbitraries.integers().between(1, 4088)), bytes)
                .as((length, data) -> new Packet(EmulatedGmPort.MESSAGE, 6, (length & 0xFFFF_FFFFL) | (long) SIZE << 32
                        | carries, data, -1, length < 0 || length > data.length ? "length" : null));
        Arbitrary<Packet> shortDirected = Arbitraries.bytes().array(byte[].class).ofMaxSize(23)
                .map(data -> new Packet(EmulatedGmPort.DIRECTED, 7, carries, data, -1, "short directed send"));
        Arbitrary<Packet> directedCarryingLess = Combinators.combine(anyLong, Arbitraries.longs().between(1, 1L << 40),
                Arbitraries.integers().between(0, 100))
                .as((target, length, carried) -> new Packet(EmulatedGmPort.DIRECTED, 8, CARRIES_DATA,
                        directed(target, 0, length + carried, carried), -1, "directed send carrying less"));
        Arbitrary<Packet> shortRecord = Combinators.combine(Arbitraries.of(EmulatedGmPort.MESSAGE, EmulatedGmPort.ACK,
                EmulatedGmPort.DIRECTED), Arbitraries.integers().between(0, 15))
                .as((kind, header) -> new Packet(kind, 9, 0, new byte[0], header, "short record"));
        return Arbitraries.frequencyOf(
                Tuple.of(8, message), Tuple.of(2, ack), Tuple.of(2, directed), Tuple.of(1, unknownKind),
                Tuple.of(1, badStatus), Tuple.of(1, badSize), Tuple.of(1, badLength), Tuple.of(1, shortDirected),
                Tuple.of(1, directedCarryingLess), Tuple.of(overWire ? 0 : 1, shortRecord));
    }

    /** A directed send's payload: target, source and length, then {@code carried} bytes of data. */
    private static byte[] directed(long target, long source, long length, int carried) {
        java.nio.ByteBuffer payload = java.nio.ByteBuffer.allocate(24 + carried).order(java.nio.ByteOrder.nativeOrder());
        payload.putLong(target).putLong(source).putLong(length);
        return payload.array();
    }
}
