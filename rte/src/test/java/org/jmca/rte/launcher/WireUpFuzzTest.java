package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Assume;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmca.rte.PeerRecord;
import org.jmca.rte.WireUpProtocol;

/**
 * Fuzzes what jmpirun and its ranks and host daemons read from one another: the wire-up
 * exchange (maps, records), the daemon protocol (LAUNCH, OUTPUT lines, HELLO), and jmpirun's
 * wire-up server itself, with valid messages that have one field wrong, are cut short, or carry
 * negative or huge counts, and with random bytes. A decoder ends in an {@link IOException} (what
 * its callers report as a lost or refused connection) or in a message; nothing else escapes,
 * nothing is allocated ahead by a count, and a server that met a stranger still serves its job.
 */
class WireUpFuzzTest {

    /** A valid encoding, then one of: a byte changed, cut short, a 4-byte field replaced by a wild count. */
    private static Arbitrary<byte[]> mutated(Arbitrary<byte[]> valid) {
        Arbitrary<Integer> wild = Arbitraries.oneOf(Arbitraries.of(-1, Integer.MIN_VALUE, Integer.MAX_VALUE,
                1 << 30, 65_536), Arbitraries.integers());
        return Combinators.combine(valid, Arbitraries.integers().between(0, 3), Arbitraries.integers().greaterOrEqual(0),
                wild, Arbitraries.bytes()).as((bytes, how, where, count, value) -> {
                    byte[] out = bytes.clone();
                    if (out.length == 0) {
                        return out;
                    }
                    int at = where % out.length;
                    return switch (how) {
                        case 0 -> {
                            out[at] = value;
                            yield out;
                        }
                        case 1 -> java.util.Arrays.copyOf(out, at);
                        case 2 -> {
                            for (int i = 0; i < 4 && at + i < out.length; i++) {
                                out[at + i] = (byte) (count >>> (24 - 8 * i));
                            }
                            yield out;
                        }
                        default -> out;
                    };
                });
    }

    private static Arbitrary<String> words() {
        return Arbitraries.strings().ofMaxLength(12);
    }

    private static Arbitrary<Map<String, String>> maps() {
        return Arbitraries.maps(words(), words()).ofMaxSize(4).map(LinkedHashMap::new);
    }

    private static byte[] encoded(Encoder encoder) {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (DataOutputStream out = new DataOutputStream(bytes)) {
            encoder.write(out);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        return bytes.toByteArray();
    }

    private interface Encoder {
        void write(DataOutputStream out) throws IOException;
    }

    private interface Decoder {
        Object read(DataInputStream in) throws IOException;
    }

    /** Decoding ends normally or in an IOException, never anything else. */
    private static void decodesOrFailsAsAnIoError(byte[] bytes, Decoder decoder) {
        assertThatCode(() -> {
            try {
                decoder.read(new DataInputStream(new ByteArrayInputStream(bytes)));
            } catch (IOException expected) {
                // what the callers turn into "connection lost" or a refusal
            }
        }).doesNotThrowAnyException();
    }

    @Provide
    Arbitrary<byte[]> records() {
        Arbitrary<byte[]> valid = Arbitraries.integers().between(1, 4).flatMap(size -> maps().list().ofSize(size)
                .map(values -> {
                    List<PeerRecord> records = new ArrayList<>();
                    for (int r = 0; r < values.size(); r++) {
                        records.add(new PeerRecord(r, "host" + r, values.get(r)));
                    }
                    return encoded(out -> WireUpProtocol.writeRecords(out, records));
                }));
        return Arbitraries.oneOf(mutated(valid), Arbitraries.bytes().array(byte[].class).ofMaxSize(64));
    }

    @Property(tries = 400)
    void theExchangesRecordsDecodeOrFailAsAnIoError(@ForAll("records") byte[] bytes,
                                                     @ForAll("sizes") int size) {
        decodesOrFailsAsAnIoError(bytes, in -> WireUpProtocol.readRecords(in, size));
    }

    @Provide
    Arbitrary<Integer> sizes() {
        return Arbitraries.integers().between(1, 4);
    }

    @Property(tries = 200)
    void aRecordsMessageForAnotherJobSizeIsRefused(@ForAll("sizes") int size, @ForAll("sizes") int claimed) {
        List<PeerRecord> records = new ArrayList<>();
        for (int r = 0; r < claimed; r++) {
            records.add(new PeerRecord(r, "h", Map.of()));
        }
        byte[] bytes = encoded(out -> WireUpProtocol.writeRecords(out, records));
        if (size == claimed) {
            assertThatCode(() -> WireUpProtocol.readRecords(new DataInputStream(new ByteArrayInputStream(bytes)), size))
                    .doesNotThrowAnyException();
        } else {
            org.assertj.core.api.Assertions.assertThatThrownBy(() -> WireUpProtocol.readRecords(
                    new DataInputStream(new ByteArrayInputStream(bytes)), size)).isInstanceOf(IOException.class)
                    .hasMessageContaining(claimed + " records for a job of " + size);
        }
    }

    @Provide
    Arbitrary<byte[]> launches() {
        Arbitrary<DaemonProtocol.RankLaunch> launch = Combinators.combine(Arbitraries.integers().between(0, 8),
                Arbitraries.integers().between(0, 8), words().list().ofMaxSize(4), maps())
                .as(DaemonProtocol.RankLaunch::new);
        Arbitrary<byte[]> valid = launch.list().ofMaxSize(3).map(ranks -> {
            byte[] all = encoded(out -> DaemonProtocol.writeLaunch(out, ranks));
            return java.util.Arrays.copyOfRange(all, 1, all.length); // readLaunch reads after the type byte
        });
        return Arbitraries.oneOf(mutated(valid), Arbitraries.bytes().array(byte[].class).ofMaxSize(64));
    }

    @Property(tries = 400)
    void aLaunchDecodesOrFailsAsAnIoError(@ForAll("launches") byte[] bytes) {
        decodesOrFailsAsAnIoError(bytes, DaemonProtocol::readLaunch);
    }

    @Provide
    Arbitrary<byte[]> outputLines() {
        Arbitrary<byte[]> valid = Arbitraries.strings().ofMaxLength(40).map(line -> {
            byte[] all = encoded(out -> DaemonProtocol.writeLine(out, 3, 1, line));
            return java.util.Arrays.copyOfRange(all, 6, all.length); // readLine reads after type, rank and stream
        });
        return Arbitraries.oneOf(mutated(valid), Arbitraries.bytes().array(byte[].class).ofMaxSize(64));
    }

    /** A length of up to 2 GiB followed by a few bytes ends at the end of the bytes, not in an OutOfMemoryError. */
    @Property(tries = 400)
    void anOutputLineDecodesOrFailsAsAnIoError(@ForAll("outputLines") byte[] bytes) {
        decodesOrFailsAsAnIoError(bytes, DaemonProtocol::readLine);
    }

    @Property(tries = 200)
    void aDaemonsHelloDecodesOrFailsAsAnIoError(@ForAll("hellos") byte[] bytes) {
        decodesOrFailsAsAnIoError(bytes, RemoteHost::readHello);
    }

    @Provide
    Arbitrary<byte[]> hellos() {
        Arbitrary<byte[]> valid = Combinators.combine(words(), Arbitraries.integers(), Arbitraries.longs())
                .as((key, host, pid) -> encoded(out -> {
                    out.writeUTF(key);
                    out.writeInt(host);
                    out.writeLong(pid);
                }));
        return Arbitraries.oneOf(mutated(valid), Arbitraries.bytes().array(byte[].class).ofMaxSize(32));
    }

    /**
     * A stranger's connection to jmpirun's wire-up server (a hello with a field wrong, cut short,
     * a rank out of range, random bytes, or the right key followed by nonsense from a rank the
     * job has not started) changes nothing for the job: its two ranks then exchange as ever.
     */
    @Property(tries = 40)
    void theWireUpServerServesItsJobWhateverAStrangerSent(@ForAll("strangers") byte[] stranger) throws Exception {
        String key = "00112233445566778899aabbccddeeff";
        // one that holds the key and names a rank of the job is that rank, not a stranger
        Assume.that(!claimsARank(stranger, key, 3));
        List<String> log = new java.util.concurrent.CopyOnWriteArrayList<>();
        try (JobServer server = new JobServer(3, key, 30, false, new JobServer.Events() {
            @Override
            public void aborted(int rank, int code, String message) {
            }

            @Override
            public void exchangeTimedOut(List<Integer> missing, long seconds) {
            }
        }, log::add)) {
            InetSocketAddress address = address(server.address());
            try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
                OutputStream out = socket.getOutputStream();
                out.write(stranger);
                out.flush();
                socket.shutdownOutput();
                socket.setSoTimeout(10_000);
                socket.getInputStream().readAllBytes(); // the server closes it, or answers nothing
            }
            try (ExecutorService ranks = Executors.newVirtualThreadPerTaskExecutor()) { // each waits for the others
                Future<List<PeerRecord>> zero = ranks.submit(() -> exchange(address, key, 0));
                Future<List<PeerRecord>> one = ranks.submit(() -> exchange(address, key, 1));
                Future<List<PeerRecord>> two = ranks.submit(() -> exchange(address, key, 2));
                assertThat(zero.get(20, TimeUnit.SECONDS)).as("log: %s", log).hasSize(3);
                assertThat(one.get(20, TimeUnit.SECONDS).get(1).values()).containsEntry("rank", "1");
                assertThat(two.get(20, TimeUnit.SECONDS).get(0).hostname()).isEqualTo("host0");
            }
        }
    }

    @Provide
    Arbitrary<byte[]> strangers() {
        Arbitrary<byte[]> hello = Arbitraries.integers().between(3, 9).map(rank -> encoded(out -> {
            out.writeInt(WireUpProtocol.MAGIC);
            out.writeUTF("00112233445566778899aabbccddeeff");
            out.writeInt(rank);
            out.writeLong(1);
            out.writeByte(WireUpProtocol.EXCHANGE);
            out.writeUTF("stranger");
            out.writeInt(-1);
        }));
        Arbitrary<byte[]> wrongKey = Arbitraries.strings().ofMaxLength(40).map(k -> encoded(out -> {
            out.writeInt(WireUpProtocol.MAGIC);
            out.writeUTF(k);
            out.writeInt(0);
            out.writeLong(1);
        }));
        return Arbitraries.oneOf(mutated(hello), mutated(wrongKey), Arbitraries.bytes().array(byte[].class).ofMaxSize(48));
    }

    private static boolean claimsARank(byte[] hello, String key, int size) {
        try {
            DataInputStream in = new DataInputStream(new ByteArrayInputStream(hello));
            if (in.readInt() != WireUpProtocol.MAGIC || !in.readUTF().equals(key)) {
                return false;
            }
            int rank = in.readInt();
            return rank >= 0 && rank < size;
        } catch (IOException e) {
            return false;
        }
    }

    private static InetSocketAddress address(String hostPort) {
        int colon = hostPort.lastIndexOf(':');
        return new InetSocketAddress(hostPort.substring(0, colon), Integer.parseInt(hostPort.substring(colon + 1)));
    }

    private static List<PeerRecord> exchange(InetSocketAddress address, String key, int rank) {
        try (Socket socket = new Socket(address.getAddress(), address.getPort())) {
            DataOutputStream out = new DataOutputStream(socket.getOutputStream());
            out.writeInt(WireUpProtocol.MAGIC);
            out.writeUTF(key);
            out.writeInt(rank);
            out.writeLong(ProcessHandle.current().pid());
            out.writeByte(WireUpProtocol.EXCHANGE);
            out.writeUTF("host" + rank);
            WireUpProtocol.writeMap(out, Map.of("rank", String.valueOf(rank)));
            out.flush();
            return WireUpProtocol.readRecords(new DataInputStream(socket.getInputStream()), 3);
        } catch (IOException e) {
            throw new AssertionError("rank " + rank + ": " + e, e);
        }
    }
}
