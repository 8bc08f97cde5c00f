package org.jmca.config.info;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;
import org.junit.jupiter.api.Test;

class JmcaInfoTest {

    /** A component with one parameter per level band. */
    static final class Sample implements ProgressComponent {
        @Override
        public String name() {
            return "sample";
        }

        @Override
        public int defaultPriority() {
            return 1;
        }

        @Override
        public void registerParameters(ParameterRegistrar registrar) {
            registrar.register(ParameterSpec.builder("user_knob", ParamType.INT, 1).help("user").level(1).build());
            registrar.register(ParameterSpec.builder("dev_knob", ParamType.INT, 2).help("dev").level(9).build());
        }

        @Override
        public ProgressEngine createEngine(ProgressEnvironment environment) {
            throw new UnsupportedOperationException();
        }
    }

    private record Result(int status, String out, String err) { }

    private static Result run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = JmcaInfo.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), ComponentRepository.of(List.of(new Sample())));
        return new Result(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void levelShouldLimitWhichParametersAreShown() {
        assertThat(run("--param", "progress", "sample", "--parsable").out())
                .contains("mca:progress:sample:param:progress_sample_user_knob:value:1")
                .doesNotContain("dev_knob");
        assertThat(run("--param", "progress", "sample", "--level", "9", "--parsable").out())
                .contains("mca:progress:sample:param:progress_sample_dev_knob:level:9");
    }

    @Test
    void baseShouldSelectAFrameworksOwnParameters() {
        String out = run("--param", "progress", "base", "--level", "9", "--parsable").out();
        assertThat(out).contains("mca:progress:base:param:progress:value:")
                .contains("mca:progress:base:param:progress_base_verbose:value:0")
                .doesNotContain("param:progress_sample");
    }

    @Test
    void anUnknownFrameworkOrComponentShouldBeAnErrorListingTheRealOnes() {
        Result framework = run("--param", "btx", "all");
        assertThat(framework.status()).isEqualTo(1);
        assertThat(framework.err()).contains("no framework named 'btx'; frameworks: all, btl, pml, coll, progress");
        Result component = run("--param", "progress", "nosuch");
        assertThat(component.status()).isEqualTo(1);
        assertThat(component.err()).contains("components: all, base, sample");
    }

    @Test
    void aLevelOutsideOneToNineShouldBeAUsageError() {
        Result result = run("--level", "10");
        assertThat(result.status()).isEqualTo(2);
        assertThat(result.err()).contains("--level=10 is outside 1..9");
    }

    @Test
    void theReportShouldShowEachFrameworkAndTheComponentStatus() {
        Result result = run("--param", "progress", "sample");
        assertThat(result.status()).isZero();
        assertThat(result.out()).contains("Framework btl (multi-select)", "Framework pml (single-select)",
                "Framework coll (per-communicator)", "Framework progress (single-select)",
                "progress/sample", "selected (priority 1)",
                "progress_sample_user_knob = \"1\"  [progress/sample, source: default, level 1, int, read-only]");
    }
}
