package org.jmca.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.param.ValueSource.Kind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class McaSourcesTest {
    private static final String NAME = "btl_tcp_eager_limit";
    private static final ParameterSpec<Long> SPEC =
            ParameterSpec.builder(NAME, ParamType.SIZE, 1024L).help("eager limit").build();

    @TempDir
    Path dir;

    private Path write(String relative, String text) throws IOException {
        Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.writeString(file, text);
        return file;
    }

    private Param<Long> resolve(McaSources sources) {
        return sources.registry().register(SPEC);
    }

    @Test
    void everySourceShouldOverrideTheOnesBelowIt() throws IOException {
        Path classes = dir.resolve("classes");
        write("classes/reference.conf", "jmca { btl.tcp.eager_limit = 1k }\nother.library.setting = 3\n");
        write("jmcahome/etc/mca-params.conf", NAME + " = 2k\n");
        write("home/.jmca/mca-params.conf", "# user\n\n" + NAME + " = 3k\n");
        Path tuneA = write("a.conf", NAME + " = 4k\n");
        Path tuneB = write("b.conf", "btl { tcp { eager_limit = 5k } }\n");

        try (URLClassLoader loader = new URLClassLoader(new URL[] {classes.toUri().toURL()}, null)) {
            McaSources sources = McaSources.empty().classLoader(loader);
            assertThat(resolve(sources).get()).isEqualTo(1024L);
            assertThat(resolve(sources).source().kind()).isEqualTo(Kind.REFERENCE_CONF);
            assertThat(resolve(sources).source().location()).endsWith("reference.conf:1");

            sources.jmcaHome(dir.resolve("jmcahome"));
            assertThat(resolve(sources).get()).isEqualTo(2048L);
            assertThat(resolve(sources).source().toString())
                    .isEqualTo("system file " + dir.resolve("jmcahome/etc/mca-params.conf") + ":1");

            sources.userHome(dir.resolve("home"));
            assertThat(resolve(sources).get()).isEqualTo(3072L);
            assertThat(resolve(sources).source().toString())
                    .isEqualTo("user file " + dir.resolve("home/.jmca/mca-params.conf") + ":3");

            sources.tuneFiles(List.of(tuneA, tuneB));
            assertThat(resolve(sources).get()).isEqualTo(5120L);
            assertThat(resolve(sources).source().toString()).isEqualTo("--tune file " + tuneB + ":1");

            sources.environment(Map.of("JMCA_MCA_" + NAME, "6k", "PATH", "/bin"));
            assertThat(resolve(sources).get()).isEqualTo(6144L);
            assertThat(resolve(sources).source().toString()).isEqualTo("environment JMCA_MCA_" + NAME);

            sources.commandLine(List.of(Map.entry(NAME, "7k"), Map.entry(NAME, "8k")));
            assertThat(resolve(sources).get()).isEqualTo(8192L);
            assertThat(resolve(sources).source().toString()).isEqualTo("command line --mca " + NAME);

            // Only JMCA's own object of a reference.conf is read: nothing else becomes a setting.
            assertThat(sources.read()).noneMatch(v -> v.name().startsWith("other"));
        }
    }

    @Test
    void aMissingTuneFileShouldBeAnErrorButMissingUserAndSystemFilesShouldNot() {
        McaSources sources = McaSources.empty().userHome(dir.resolve("nohome")).jmcaHome(dir.resolve("nojmca"));
        assertThat(sources.read()).isEmpty();
        sources.tuneFiles(List.of(dir.resolve("missing.conf")));
        assertThatThrownBy(sources::read)
                .isInstanceOf(ParameterException.class)
                .hasMessageContaining("--tune file " + dir.resolve("missing.conf") + " does not exist");
    }

    @Test
    void aWrongTypeInAFileShouldNameTheFileAndLine() throws IOException {
        write("home/.jmca/mca-params.conf", "\n" + NAME + " = lots\n");
        McaSources sources = McaSources.empty().userHome(dir.resolve("home"));
        assertThatThrownBy(() -> resolve(sources))
                .hasMessageContaining(NAME + " from user file " + dir.resolve("home/.jmca/mca-params.conf") + ":2")
                .hasMessageContaining("'lots' is not a byte count");
    }

    @Test
    void onlyPrefixedEnvironmentVariablesShouldBeRead() {
        McaSources sources = McaSources.empty().environment(Map.of("JMCA_MCA_", "x", "JMCA_MCA_btl", "self",
                "OMPI_MCA_btl", "tcp"));
        assertThat(sources.read()).extracting(v -> v.name() + "=" + v.text()).containsExactly("btl=self");
    }
}
