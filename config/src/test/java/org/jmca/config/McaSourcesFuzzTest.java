package org.jmca.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.jmca.mca.param.ParameterException;

/**
 * What a process reads from its environment before any file: the {@code --mca} pairs jmpirun
 * encodes into {@code JMCA_CMDLINE_MCA}, and the paths of {@code HOME}, {@code JMCA_HOME} and
 * {@code JMCA_TUNE_FILES}. Whatever they hold, the result is the pairs or a
 * {@link ParameterException} naming the variable.
 */
class McaSourcesFuzzTest {

    @Property(tries = 300)
    void encodedPairsDecodeToThemselves(@ForAll("pairs") List<Map.Entry<String, String>> pairs) {
        assertThat(McaSources.decodeCommandLine(McaSources.encodeCommandLine(pairs))).isEqualTo(pairs);
    }

    @Property(tries = 300)
    void anyCommandLineVariableDecodesOrNamesItsLine(@ForAll("variables") String text) {
        try {
            List<Map.Entry<String, String>> pairs = McaSources.decodeCommandLine(text);
            assertThat(pairs).allSatisfy(pair -> assertThat(pair.getKey()).isNotEmpty().doesNotContain("=", "\n"));
        } catch (ParameterException e) {
            assertThat(e.getMessage()).matches("(?s)environment JMCA_CMDLINE_MCA line [1-9]\\d*: '.*' is not name=value.*");
        }
    }

    @Property(tries = 200)
    void anyEnvironmentGivesSourcesOrNamesTheVariable(@ForAll("variables") String home,
                                                       @ForAll("variables") String jmcaHome,
                                                       @ForAll("variables") String tune) {
        Map<String, String> env = new HashMap<>(Map.of("HOME", home, "JMCA_HOME", jmcaHome,
                McaSources.ENV_TUNE_FILES, tune));
        try {
            McaSources.ofEnvironment(env);
        } catch (ParameterException e) {
            assertThat(e.getMessage()).matches("(?s)environment (HOME|JMCA_HOME|JMCA_TUNE_FILES): .+");
        }
    }

    @Example
    void aPathWithANulCharacterNamesItsVariable() {
        assertThatThrownBy(() -> McaSources.ofEnvironment(Map.of("HOME", "/tmp", "JMCA_HOME", "/opt/j\0mca")))
                .isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("environment JMCA_HOME: '/opt/j\0mca' is not a path");
        assertThatThrownBy(() -> McaSources.decodeCommandLine("btl=tcp\nno pair here\n"))
                .isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("environment JMCA_CMDLINE_MCA line 2: 'no pair here' is not name=value");
    }

    @Provide
    Arbitrary<List<Map.Entry<String, String>>> pairs() {
        Arbitrary<String> name = Arbitraries.strings().all().ofMinLength(1).ofMaxLength(20)
                .filter(n -> !n.contains("=") && !n.contains("\n"));
        Arbitrary<String> value = Arbitraries.strings().all().ofMaxLength(40).filter(v -> !v.contains("\n"));
        return Combinators.combine(name, value).as(Map::entry).list().ofMaxSize(6);
    }

    @Provide
    Arbitrary<String> variables() {
        return Arbitraries.oneOf(Arbitraries.strings().all().ofMaxLength(60),
                Arbitraries.strings().withChars("a=b\n\0/,. ").ofMaxLength(40),
                Arbitraries.of("", "/tmp", "/tmp,/x", "btl=tcp\n=x\n", "\n\n", "a=b\nc"));
    }
}
