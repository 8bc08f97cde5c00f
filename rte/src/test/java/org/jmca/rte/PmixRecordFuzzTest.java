package org.jmca.rte;

import static org.assertj.core.api.Assertions.assertThat;

import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes a rank's wire-up record as the PMIx server hands it over (a host line, then "key=value"
 * lines, escaped): lines without '=', empty lines, escapes cut short, random text. It reads as a
 * record of the rank or fails as a wire-up error naming the rank; nothing else is thrown.
 */
class PmixRecordFuzzTest {

    @Provide
    Arbitrary<String> records() {
        Arbitrary<String> line = Arbitraries.oneOf(
                Arbitraries.strings().withChars("ab=\\\\ne").ofMaxLength(12),
                Arbitraries.strings().ofMaxLength(20));
        return line.list().ofMaxSize(6).map(lines -> String.join("\n", lines));
    }

    @Property(tries = 500)
    void aRecordReadsOrFailsAsAWireUpErrorNamingTheRank(@ForAll("records") String text) {
        try {
            PeerRecord record = PmixWireUp.parse(5, text);
            assertThat(record.rank()).isEqualTo(5);
        } catch (WireUpException e) {
            assertThat(e.getMessage()).contains("rank 5");
        }
    }
}
