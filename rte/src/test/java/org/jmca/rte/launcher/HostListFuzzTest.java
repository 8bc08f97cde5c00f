package org.jmca.rte.launcher;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import org.jmca.mca.fuzz.FuzzFiles;
import org.jmca.mca.fuzz.TextMutations;

/**
 * {@code --host} values and hostfiles as a user may get them wrong: valid ones with one token
 * replaced, removed, duplicated or moved, truncated, with huge, negative and overflowing slot
 * counts, names the launch agent would misread, random text and random bytes. Every one gives
 * hosts that can be launched on, or an {@link IllegalArgumentException} naming the flag, or the
 * file and line.
 */
class HostListFuzzTest {
    private static final Path DIR = FuzzFiles.directory("hostlist-fuzz");

    // ---- --host ----------------------------------------------------------------------------------

    @Property(tries = 300)
    void aValidHostValueGivesItsHostsWithTheirSlotsAddedUp(@ForAll("entries") List<Map.Entry<String, Integer>> entries) {
        String spec = entries.stream().map(e -> e.getValue() == 1 ? e.getKey() : e.getKey() + ":" + e.getValue())
                .collect(Collectors.joining(","));
        Map<String, Integer> expected = new LinkedHashMap<>();
        entries.forEach(e -> expected.merge(e.getKey(), e.getValue(), Integer::sum));
        assertThat(HostList.parse(spec)).containsExactlyElementsOf(
                expected.entrySet().stream().map(e -> new Host(e.getKey(), e.getValue())).toList());
    }

    @Property(tries = 400)
    void anyHostValueGivesUsableHostsOrNamesTheFlag(@ForAll("hostValues") String spec) {
        try {
            usable(HostList.parse(spec));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("--host ");
        }
    }

    /** Slots of a host named again were summed as ints: 2147483647 + 1 became negative, three times wrong. */
    @Property(tries = 50)
    void slotsThatOverflowAnIntAreAnErrorNamingTheHostAndFlag(
            @ForAll @IntRange(min = 1 << 30, max = Integer.MAX_VALUE) int slots, @ForAll @IntRange(min = 3, max = 4) int times) {
        String spec = ("big:" + slots + ",").repeat(times) + "small";
        assertThatThrownBy(() -> HostList.parse(spec)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--host " + spec + ": 'big:" + slots + "': host 'big' has ")
                .hasMessageContaining("exceed 2147483647 in all");
    }

    /** Such a name was passed to ssh as it is: "-oProxyCommand=..." is an option to ssh. */
    @Property(tries = 100)
    void aNameTheLaunchAgentWouldMisreadIsRefused(@ForAll("badNames") String name) {
        assertThatThrownBy(() -> HostList.parse("good," + name + ":2")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("--host ").hasMessageContaining(Host.quoted(name))
                .hasMessageContaining("a host name may not");
        Path file = write("bad-name", "good slots=2\n" + name + " slots=2\n");
        assertThatThrownBy(() -> HostList.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(file + ":2: ");
    }

    // ---- --hostfile ------------------------------------------------------------------------------

    @Property(tries = 200)
    void anyHostfileGivesUsableHostsOrNamesTheFileAndLine(@ForAll("hostfiles") String text) {
        Path file = write("hostfile", text);
        try {
            usable(HostList.read(file));
        } catch (IllegalArgumentException e) {
            Matcher named = Pattern.compile("(?s)(--hostfile )?" + Pattern.quote(file.toString()) + "(:(\\d+))?[: ].+")
                    .matcher(e.getMessage());
            assertThat(named.matches()).as("names the file: %s", e.getMessage()).isTrue();
            if (named.group(3) != null) {
                assertThat(Integer.parseInt(named.group(3))).isBetween(1, (int) text.lines().count() + 1);
            } else {
                assertThat(e.getMessage()).containsAnyOf("names no host", "is not UTF-8 text");
            }
        }
    }

    @Property(tries = 60)
    void anyBytesGiveUsableHostsOrNameTheFile(@ForAll byte[] bytes) throws IOException {
        Path file = Files.write(DIR.resolve("bytes"), bytes);
        try {
            usable(HostList.read(file));
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).contains(file.toString()).doesNotContain("Input length");
        }
    }

    @Property(tries = 50)
    void slotsThatOverflowInAHostfileAreAnErrorAtTheLine(@ForAll @IntRange(min = 1 << 30, max = Integer.MAX_VALUE) int slots) {
        Path file = write("overflow", "a slots=" + slots + "\nb\na slots=" + slots + "\na slots=" + slots + "\n");
        assertThatThrownBy(() -> HostList.read(file)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageMatching("(?s)" + Pattern.quote(file.toString()) + ":[34]: host 'a' has .* exceed 2147483647 in all");
    }

    private static void usable(List<Host> hosts) {
        assertThat(hosts).isNotEmpty();
        for (Host host : hosts) {
            assertThat(Host.nameProblem(host.name())).as(host.name()).isNull();
            assertThat(host.slots()).isPositive();
        }
        assertThat(hosts.stream().map(Host::name).distinct().count()).isEqualTo(hosts.size());
    }

    private static Path write(String name, String text) {
        try {
            return Files.write(DIR.resolve(name), text.getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    // ---- generators ------------------------------------------------------------------------------

    @Provide
    Arbitrary<List<Map.Entry<String, Integer>>> entries() {
        return Combinators.combine(names(), Arbitraries.integers().between(1, 64)).as(Map::entry)
                .list().ofMinSize(1).ofMaxSize(6);
    }

    @Provide
    Arbitrary<String> badNames() {
        return Arbitraries.oneOf(
                Arbitraries.of("-oProxyCommand=touch%x", "-v", "--", "-", "a b", "a\tb", "a\u0000b", "a\u001bb",
                        "a\u200bb", "a\u00a0b", "a\u2003b", "a\u007fb", "-host"),
                names().map(n -> "-" + n));
    }

    @Provide
    Arbitrary<String> hostValues() {
        Arbitrary<String> valid = entries().map(entries -> entries.stream()
                .map(e -> e.getKey() + ":" + e.getValue()).collect(Collectors.joining(",")));
        return Arbitraries.oneOf(mutated(valid), Arbitraries.strings().all().ofMaxLength(40),
                Arbitraries.strings().withChars("ab:,-1 9\t").ofMaxLength(30));
    }

    @Provide
    Arbitrary<String> hostfiles() {
        Arbitrary<String> line = Combinators.combine(names(), Arbitraries.of("", " slots=4", "\tslots=1  # a comment",
                        " max_slots=8", " slots=2 max-slots=2", "   # comment"))
                .as((name, rest) -> name + rest);
        Arbitrary<String> valid = Arbitraries.oneOf(line, Arbitraries.of("# hosts", "", "   "))
                .list().ofMinSize(1).ofMaxSize(6).map(lines -> String.join("\n", lines) + "\n");
        return Arbitraries.oneOf(mutated(valid), Arbitraries.strings().all().ofMaxLength(80),
                Arbitraries.strings().withChars("ab=slot 1#\n\t-").ofMaxLength(80));
    }

    private static Arbitrary<String> names() {
        return Arbitraries.of("node1", "node2", "n-3.cluster", "10.0.0.7", "host_a", "localhost", "fe80--1", "x");
    }

    private static Arbitrary<String> mutated(Arbitrary<String> valid) {
        Arbitrary<String> token = Arbitraries.oneOf(
                Arbitraries.of("", "-1", "0", "2147483647", "2147483648", "99999999999999999999", ":", "::", ",", "=",
                        "slots", "slots=", "slots=0", "slots=-2", "max_slots=x", "#", "\n", "\t", " ", "-o", "\u0000",
                        "\u200b", "\u00a0", "\uD800", "\u4e2d"),
                Arbitraries.integers().between(1_000, 50_000).map(" "::repeat),
                Arbitraries.strings().all().ofMaxLength(6));
        return TextMutations.mutated(valid, token);
    }
}
