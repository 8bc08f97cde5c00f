package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataOutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import org.jmca.rte.WireUpProtocol;

/**
 * A rank's exit can be seen before jmpirun's thread serving its wire-up connection has read the
 * FINALIZED it sent last: asked at once, whether the rank finalized must wait for what it sent,
 * or a rank that finalized is reported as one that "exited without calling MPI.Finalize" (found by
 * bench/soak, 1 job in 70). A rank that closed its connection without FINALIZED is told apart as
 * soon as the connection's end is read, not after the wait.
 */
class JobServerFinalizeTest {
    private static final String KEY = "00112233445566778899aabbccddeeff";

    @Property(tries = 60)
    void whetherARankFinalizedIsKnownOnceItsConnectionIsRead(@ForAll boolean finalizes) throws Exception {
        try (JobServer server = new JobServer(1, KEY, 30, false, new JobServer.Events() {
            @Override
            public void aborted(int rank, int code, String message) {
            }

            @Override
            public void exchangeTimedOut(List<Integer> missing, long seconds) {
            }
        }, line -> { })) {
            int port = Integer.parseInt(server.address().substring(server.address().lastIndexOf(':') + 1));
            try (Socket rank = new Socket(InetAddress.getLoopbackAddress(), port)) {
                DataOutputStream out = new DataOutputStream(rank.getOutputStream());
                out.writeInt(WireUpProtocol.MAGIC);
                out.writeUTF(KEY);
                out.writeInt(0);
                out.writeLong(1);
                if (finalizes) {
                    out.writeByte(WireUpProtocol.FINALIZED);
                }
                out.flush();
            }
            long start = System.nanoTime();
            assertThat(server.finalizedOnceRead(0, 10_000)).isEqualTo(finalizes);
            assertThat(System.nanoTime() - start).as("told apart at the connection's end, not after the wait")
                    .isLessThan(5_000_000_000L);
        }
    }
}
