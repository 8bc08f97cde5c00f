package org.jmca.mca.fuzz;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;

/** A forged stream sent to a wire that must close the connection, neither hanging nor spinning. */
public final class FuzzSockets {
    private FuzzSockets() {
    }

    /**
     * Writes {@code stream} and closes this side's sending half, while reading what the other side
     * answers until it closes the connection; fails unless it closes within {@code limit}.
     *
     * @param who what closes it, for the failure's message ("the wire", "the agent")
     * @return what the other side wrote
     */
    public static byte[] sendAndAwaitClose(SocketChannel channel, ByteBuffer stream, Duration limit, String who)
            throws InterruptedException, IOException {
        Thread writer = Thread.ofVirtual().start(() -> {
            try {
                while (stream.hasRemaining()) {
                    channel.write(stream);
                }
                channel.shutdownOutput();
            } catch (IOException e) {
                // the other side dropped the connection at a bad frame, before everything was written
            }
        });
        ByteArrayOutputStream answered = new ByteArrayOutputStream();
        Thread reader = Thread.ofVirtual().start(() -> {
            ByteBuffer buffer = ByteBuffer.allocate(8192);
            try {
                while (channel.read(buffer.clear()) >= 0) {
                    answered.write(buffer.array(), 0, buffer.position());
                }
            } catch (IOException e) {
                // reset: closed by the other side too
            }
        });
        boolean closed = reader.join(limit);
        if (!closed) {
            channel.close();
        }
        writer.join();
        reader.join();
        assertThat(closed).as("%s closed the connection within %s", who, limit).isTrue();
        return answered.toByteArray();
    }
}
