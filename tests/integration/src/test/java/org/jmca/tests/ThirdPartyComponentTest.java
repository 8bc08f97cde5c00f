package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The example plug-in (tests/example-plugin, built against mca-api alone) is found and selected
 * when its jar is put beside JMCA at run time, on the class path or the module path.
 */
class ThirdPartyComponentTest {

    @TempDir
    Path home;

    @Test
    void isFoundOnTheClassPathSelectedAndItsReferenceConfRead() {
        Jmca.Result result = new Jmca(home).withExamplePlugin()
                .run("jmca-info", "--param", "btl", "example", "--parsable");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).contains(
                "mca:btl:example:version:1.0-example",
                "mca:btl:example:status:selected",
                "mca:btl:example:param:btl_example_greeting:value:hello from the example plug-in's reference.conf");
        assertThat(result.outLines()).anyMatch(l -> l.matches(
                "mca:btl:example:param:btl_example_greeting:source:reference\\.conf jar:file:.*example-plugin.*\\.jar!/reference\\.conf:3"));
    }

    @Test
    void isAbsentWithoutItsJar() {
        Jmca.Result result = new Jmca(home).run("jmca-info", "--parsable");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).doesNotContain("mca:btl:example");
    }

    @Test
    void canBeExcludedAndThenSaysWhy() {
        Jmca.Result result = new Jmca(home).withExamplePlugin().run("jmca-info", "--mca", "btl", "^example");
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.out()).contains("btl/example").contains("not used: excluded by btl=^example (command line --mca btl)");
    }

    @Test
    void isFoundOnTheModulePath() throws IOException {
        String modulePath;
        try (Stream<Path> jars = Files.list(Jmca.LIB)) {
            modulePath = Stream.concat(jars, Stream.of(Jmca.EXAMPLE_PLUGIN)).map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator));
        }
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Jmca.Result result = new Jmca(home).exec(List.of(java.toString(), "--module-path", modulePath,
                "--module", "org.jmca.config/org.jmca.config.info.JmcaInfo", "--parsable"));
        assertThat(result.status()).as(result.err()).isZero();
        assertThat(result.outLines()).contains("mca:btl:example:status:selected", "mca:progress:polling:status:selected");
    }
}
