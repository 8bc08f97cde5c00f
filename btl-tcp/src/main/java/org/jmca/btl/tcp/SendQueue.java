package org.jmca.btl.tcp;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.ArrayDeque;

/**
 * The bytes waiting to go to one peer, while its connection is being made or its socket is full:
 * frames appended back to back into direct chunks, which a flush hands to the socket in one
 * gathering write. Direct memory all the way, so that NIO adds no copy of its own (it copies a
 * heap buffer into a temporary direct one before every write), and many small frames leave in
 * one system call.
 *
 * <p>Each chunk is kept ready to write: its position is the next byte to send, its limit the end
 * of what was appended.
 */
final class SendQueue {
    static final int CHUNK = 64 * 1024;
    /** Chunks one write hands to the socket (Linux takes up to 1024 iovecs). */
    private static final int GATHER = 64;

    /** The module's spare chunks, shared by its peers' queues. */
    static final class ChunkPool {
        private final ArrayDeque<ByteBuffer> spare = new ArrayDeque<>();
        private final int keep;

        /** A pool that keeps at most {@code keep} spare chunks. */
        ChunkPool(int keep) {
            this.keep = keep;
        }

        ByteBuffer take() {
            ByteBuffer chunk = spare.pollFirst();
            return chunk != null ? chunk.limit(0) : ByteBuffer.allocateDirect(CHUNK).limit(0);
        }

        void give(ByteBuffer chunk) {
            if (spare.size() < keep) {
                spare.addFirst(chunk.clear());
            }
        }
    }

    private final ChunkPool pool;
    private final ArrayDeque<ByteBuffer> chunks = new ArrayDeque<>();
    private final ByteBuffer[] gather = new ByteBuffer[GATHER];
    private long bytes;
    private long appendedBytes;
    private long writes;

    SendQueue(ChunkPool pool) {
        this.pool = pool;
    }

    boolean isEmpty() {
        return bytes == 0;
    }

    long bytes() {
        return bytes;
    }

    /** Bytes ever copied into this queue. */
    long appendedBytes() {
        return appendedBytes;
    }

    /** Writes this queue ever made. */
    long writes() {
        return writes;
    }

    /** Copies the remaining bytes of {@code source} to the end of the queue. */
    void append(ByteBuffer source) {
        while (source.hasRemaining()) {
            ByteBuffer tail = chunks.peekLast();
            if (tail == null || tail.limit() == CHUNK) {
                tail = pool.take();
                chunks.addLast(tail);
            }
            int at = tail.limit();
            int n = Math.min(CHUNK - at, source.remaining());
            tail.limit(at + n);
            tail.put(at, source, source.position(), n);
            source.position(source.position() + n);
            bytes += n;
            appendedBytes += n;
        }
    }

    /** Writes as much as the socket takes; true if nothing is left. */
    boolean flush(SocketChannel channel) throws IOException {
        while (bytes > 0) {
            int count = 0;
            for (ByteBuffer chunk : chunks) {
                gather[count++] = chunk;
                if (count == GATHER) {
                    break;
                }
            }
            long written = channel.write(gather, 0, count);
            writes++;
            bytes -= written;
            while (!chunks.isEmpty() && !chunks.peekFirst().hasRemaining()) {
                pool.give(chunks.pollFirst());
            }
            if (bytes > 0 && (written == 0 || count < GATHER)) {
                return false; // the socket is full
            }
        }
        return true;
    }
}
