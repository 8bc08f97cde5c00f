package org.jmca.btl.tcp;

import java.nio.ByteBuffer;
import java.security.MessageDigest;

/**
 * What btl/tcp puts on a connection.
 *
 * <pre>
 * Handshake, connector to acceptor (44 bytes), answered by one byte: 1 accepted, 0 refused.
 *  0 | magic "JMCA"          (int) |
 *  4 | wire version          (int) |
 *  8 | SHA-256 of the job key (32 B) |  the job's secret: a connection without it is dropped
 * 40 | connector's rank      (int) |
 * (between two jobs joined by a bridge: the bridge's key, and the connector's index at the acceptor)
 *
 * Then frames, both ways:
 *  0 | length = 1 + n        (int) |
 *  4 | active-message tag   (byte) |  0 is btl/tcp's own GOODBYE: the peer is finalizing
 *  5 | n bytes: header then payload |
 * </pre>
 *
 * A connection that ends without a GOODBYE means the peer died.
 */
final class TcpWire {
    static final int MAGIC = 0x4a4d4341;
    static final int VERSION = 1;
    static final int KEY_LENGTH = 32;
    static final int HANDSHAKE_LENGTH = 4 + 4 + KEY_LENGTH + 4;
    static final byte ACCEPTED = 1;
    static final byte REFUSED = 0;
    static final int FRAME_HEADER = 5;
    static final byte GOODBYE = 0;

    private TcpWire() {
    }

    static ByteBuffer handshake(byte[] jobKey, int rank) {
        ByteBuffer b = ByteBuffer.allocate(HANDSHAKE_LENGTH);
        b.putInt(MAGIC).putInt(VERSION).put(jobKey, 0, KEY_LENGTH).putInt(rank);
        return b.flip();
    }

    /** Why a handshake is refused, or null if it is good. Compares the key in constant time. */
    static String checkHandshake(ByteBuffer b, byte[] jobKey, int jobSize) {
        if (b.getInt(0) != MAGIC) {
            return "it is not a JMCA peer (bad magic)";
        }
        if (b.getInt(4) != VERSION) {
            return "it speaks wire version " + b.getInt(4) + ", not " + VERSION;
        }
        byte[] key = new byte[KEY_LENGTH];
        b.get(8, key);
        if (!MessageDigest.isEqual(key, jobKey)) {
            return "it did not present this job's key";
        }
        int rank = b.getInt(40);
        if (rank < 0 || rank >= jobSize) {
            return "it claims rank " + rank + ", outside the job's 0.." + (jobSize - 1);
        }
        return null;
    }

    /** The key digest a handshake shows, if its magic and version are right; else null. */
    static byte[] handshakeKey(ByteBuffer b) {
        if (b.getInt(0) != MAGIC || b.getInt(4) != VERSION) {
            return null;
        }
        byte[] key = new byte[KEY_LENGTH];
        b.get(8, key);
        return key;
    }

    static int handshakeRank(ByteBuffer b) {
        return b.getInt(40);
    }

    /** The 32 bytes sent in the handshake: a SHA-256 digest of the job's key. */
    static byte[] keyDigest(byte[] jobKey) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(jobKey);
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
