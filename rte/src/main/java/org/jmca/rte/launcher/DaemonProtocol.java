package org.jmca.rte.launcher;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmca.rte.WireUpProtocol;

/**
 * The messages between jmpirun and the daemon it starts on each remote host, over one TCP
 * connection the daemon opens, in {@link DataOutputStream} encoding.
 *
 * <pre>
 * daemon  → jmpirun  HELLO    magic, job key (hex), host index, pid
 * jmpirun → daemon   LAUNCH   n, n × (rank, local rank, command list, environment map)
 * daemon  → jmpirun  STARTED  rank, pid
 * daemon  → jmpirun  OUTPUT   rank, stream (1 stdout, 2 stderr), length, bytes of one line
 * daemon  → jmpirun  EXITED   rank, status (128 + signal when killed)
 * daemon  → jmpirun  FAILED   rank, message                   the rank could not start
 * jmpirun → daemon   SIGNAL   name (USR1, USR2)                 the signal, to each of its ranks
 * jmpirun → daemon   STOP     grace in milliseconds            SIGTERM, then SIGKILL after the grace
 * daemon  → jmpirun  BYE                                      its ranks are gone, its session directory too
 * </pre>
 */
final class DaemonProtocol {
    static final int MAGIC = 0x4a4d4448;
    static final byte LAUNCH = 1;
    static final byte STARTED = 2;
    static final byte OUTPUT = 3;
    static final byte EXITED = 4;
    static final byte FAILED = 5;
    static final byte STOP = 6;
    static final byte BYE = 7;
    static final byte SIGNAL = 8;

    /** One rank a daemon starts. */
    record RankLaunch(int rank, int localRank, List<String> command, Map<String, String> environment) {
    }

    private DaemonProtocol() {
    }

    static void writeLaunch(DataOutputStream out, List<RankLaunch> ranks) throws IOException {
        out.writeByte(LAUNCH);
        out.writeInt(ranks.size());
        for (RankLaunch r : ranks) {
            out.writeInt(r.rank());
            out.writeInt(r.localRank());
            out.writeInt(r.command().size());
            for (String word : r.command()) {
                out.writeUTF(word);
            }
            WireUpProtocol.writeMap(out, r.environment());
        }
        out.flush();
    }

    /** Reads a LAUNCH after its type byte. */
    static List<RankLaunch> readLaunch(DataInputStream in) throws IOException {
        int n = WireUpProtocol.count(in, "ranks to launch");
        List<RankLaunch> ranks = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            int rank = in.readInt();
            int local = in.readInt();
            int words = WireUpProtocol.count(in, "words of a command");
            List<String> command = new ArrayList<>();
            for (int w = 0; w < words; w++) {
                command.add(in.readUTF());
            }
            ranks.add(new RankLaunch(rank, local, command, WireUpProtocol.readMap(in)));
        }
        return ranks;
    }

    static void writeLine(DataOutputStream out, int rank, int stream, String line) throws IOException {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        out.writeByte(OUTPUT);
        out.writeInt(rank);
        out.writeByte(stream);
        out.writeInt(bytes.length);
        out.write(bytes);
    }

    static String readLine(DataInputStream in) throws IOException {
        int length = WireUpProtocol.count(in, "bytes of an output line");
        byte[] bytes = in.readNBytes(length); // as they come: a length the bytes do not follow allocates nothing ahead
        if (bytes.length < length) {
            throw new EOFException("an output line of " + length + " bytes ended after " + bytes.length);
        }
        return new String(bytes, StandardCharsets.UTF_8);
    }
}
