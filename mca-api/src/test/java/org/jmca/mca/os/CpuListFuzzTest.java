package org.jmca.mca.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/**
 * CPU lists from /proc ({@code Cpus_allowed_list}) and from a user's parameter (the async
 * progress CPUs): a list is its CPUs in order, and anything else, including a range or a count
 * too large for any machine, is an {@link IllegalArgumentException} quoting the text at fault.
 */
class CpuListFuzzTest {

    @Property(tries = 300)
    void aWrittenListReadsBackAsItsCpus(@ForAll("ranges") List<int[]> ranges) {
        String text = ranges.stream().map(r -> r[0] == r[1] ? " " + r[0] : r[0] + "-" + r[1] + " ")
                .collect(Collectors.joining(","));
        int[] expected = ranges.stream().flatMapToInt(r -> IntStream.rangeClosed(r[0], r[1])).toArray();
        assertThat(CpuList.parse(text)).containsExactly(expected);
    }

    @Property(tries = 500)
    void anyTextIsAListOrAnErrorQuotingIt(@ForAll("texts") String text) {
        try {
            int[] cpus = CpuList.parse(text);
            assertThat(cpus.length).isLessThanOrEqualTo(CpuList.MAX_CPUS);
            assertThat(IntStream.of(cpus).allMatch(cpu -> cpu >= 0 && cpu < CpuList.MAX_CPUS)).isTrue();
        } catch (IllegalArgumentException e) {
            assertThat(e.getMessage()).startsWith("\"").containsAnyOf("is not a CPU number", "names more than");
            assertThat(e.getMessage().length()).isLessThan(250);
        }
    }

    /** "0-2147483647" added 2^31 boxed CPUs (out of memory), and cpu++ would then have overflowed forever. */
    @Property(tries = 30)
    void aRangeBeyondAnyMachineIsRefused(@ForAll @IntRange(min = 1 << 16, max = Integer.MAX_VALUE) int last,
                                         @ForAll @IntRange(min = 0, max = 3) int form) {
        String text = switch (form) {
            case 0 -> "0-" + last;
            case 1 -> String.valueOf(last);
            case 2 -> "1," + (last - 1) + "-" + last;
            default -> "0-" + Integer.MAX_VALUE;
        };
        assertThatThrownBy(() -> assertTimeoutPreemptively(Duration.ofSeconds(5), () -> CpuList.parse(text)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("CPU numbers run from 0 to " + (CpuList.MAX_CPUS - 1));
    }

    @Property(tries = 5)
    void tooManyCpusInAllAreRefused(@ForAll @IntRange(min = 2, max = 40) int repeats) {
        String text = IntStream.range(0, repeats).mapToObj(i -> "0-" + (CpuList.MAX_CPUS / 2))
                .collect(Collectors.joining(","));
        assertThatThrownBy(() -> CpuList.parse(text)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("names more than " + CpuList.MAX_CPUS + " CPUs");
    }

    @Provide
    Arbitrary<List<int[]>> ranges() {
        Arbitrary<int[]> range = Combinators.combine(Arbitraries.integers().between(0, 4000),
                Arbitraries.integers().between(0, 40)).as((first, length) -> new int[] {first, first + length});
        return range.list().ofMinSize(1).ofMaxSize(8).map(ArrayList::new);
    }

    @Provide
    Arbitrary<String> texts() {
        return Arbitraries.oneOf(
                Arbitraries.strings().withChars("0123456789,- \t+").ofMaxLength(40),
                Arbitraries.strings().all().ofMaxLength(30),
                Arbitraries.of("", " ", ",", "-", "1-", "-1", "1--2", "01", "0x1", "99999999999", "2147483647",
                        "2147483648", "65535", "65536", "0-65535", "0-65536", "1,,2", "3-1", "\u0663", "1\u00a0"),
                Arbitraries.integers().between(1_000, 200_000).map(n -> "1," + "9".repeat(n)));
    }
}
