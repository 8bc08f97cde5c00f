package org.jmca.btl.tcp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.McaException;

/**
 * Fuzzes what btl/tcp reads before a connection carries fragments: the 44-byte handshake (a valid
 * one with one byte or field changed, or random bytes) and the address list a peer publishes
 * ("host:port,..." with an entry wrong). A handshake is accepted only when it is this job's, from
 * a rank of the job; anything else gets a reason. A bad address list is an error naming the rank
 * and the entry. (The frames after the handshake are checked by their length, see
 * TcpBtlModuleTest; their bodies are ob1's, fuzzed in Ob1HeaderFuzzTest.)
 */
class TcpWireFuzzTest {
    private static final byte[] KEY = TcpWire.keyDigest("the job's key".getBytes());
    private static final int JOB_SIZE = 4;

    @Property(tries = 500)
    void aHandshakeIsAcceptedOnlyWhenItIsThisJobsFromOneOfItsRanks(
            @ForAll @IntRange(min = -2, max = 6) int rank, @ForAll @IntRange(min = -1, max = 43) int changed,
            @ForAll byte value) {
        ByteBuffer handshake = TcpWire.handshake(KEY, rank);
        boolean intact = changed < 0 || handshake.get(changed) == value;
        if (changed >= 0) {
            handshake.put(changed, value);
        }
        String refusal = TcpWire.checkHandshake(handshake, KEY, JOB_SIZE);
        boolean fromTheJob = intact || changed >= 40; // bytes 40-43 are the rank: changed, it is still a rank
        int claimed = handshake.getInt(40);
        if (fromTheJob && claimed >= 0 && claimed < JOB_SIZE) {
            assertThat(refusal).isNull();
        } else {
            assertThat(refusal).isNotNull();
        }
    }

    @Property(tries = 300)
    void randomBytesAreRefusedWithAReason(@ForAll("handshakeSized") byte[] bytes) {
        assertThat(TcpWire.checkHandshake(ByteBuffer.wrap(bytes), KEY, JOB_SIZE)).isNotNull();
    }

    @Provide
    Arbitrary<byte[]> handshakeSized() {
        return Arbitraries.bytes().array(byte[].class).ofSize(TcpWire.HANDSHAKE_LENGTH);
    }

    @Provide
    Arbitrary<String> entries() {
        Arbitrary<String> host = Arbitraries.of("127.0.0.1", "10.1.2.3", "::1", "localhost", "");
        Arbitrary<String> port = Arbitraries.oneOf(Arbitraries.integers().between(-5, 70_000).map(String::valueOf),
                Arbitraries.of("", "x", "99999999999", " 80", "0x50"));
        Arbitrary<String> entry = Combinators.combine(host, port, Arbitraries.of(":", "", "::", ";"))
                .as((h, p, sep) -> h + sep + p);
        return entry.list().ofMinSize(1).ofMaxSize(3).map(l -> String.join(",", l));
    }

    @Property(tries = 300)
    void aPublishedAddressListIsReadOrRefusedNamingTheRankAndTheEntry(@ForAll("entries") String published) {
        boolean valid = List.of(published.split(",")).stream().allMatch(TcpWireFuzzTest::isHostPort);
        if (valid) {
            List<InetSocketAddress> addresses = TcpBtlModule.parse(published, 3);
            assertThat(addresses).hasSize(published.split(",").length)
                    .allSatisfy(a -> assertThat(a.isUnresolved()).isFalse());
        } else {
            assertThatThrownBy(() -> TcpBtlModule.parse(published, 3)).isInstanceOf(McaException.class)
                    .hasMessageStartingWith("btl/tcp: rank 3 published the address '");
        }
    }

    private static boolean isHostPort(String entry) {
        int colon = entry.lastIndexOf(':');
        if (colon <= 0 || !entry.substring(colon + 1).matches("\\d{1,5}")) {
            return false;
        }
        int port = Integer.parseInt(entry.substring(colon + 1));
        String host = entry.substring(0, colon);
        return port >= 1 && port <= 65_535 && List.of("127.0.0.1", "10.1.2.3", "::1", "localhost", ":").contains(host)
                && !host.equals(":");
    }
}
