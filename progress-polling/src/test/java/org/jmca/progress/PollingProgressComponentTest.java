package org.jmca.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.Framework;
import org.jmca.mca.McaException;
import org.jmca.mca.McaFrameworks;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;
import org.junit.jupiter.api.Test;

class PollingProgressComponentTest {

    private static ProgressEngine engineWith(ProgressEnvironment environment, String... nameValues) {
        List<RawValue> settings = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            settings.add(new RawValue(nameValues[i], nameValues[i + 1],
                    new ValueSource(ValueSource.Kind.COMMAND_LINE, "--mca " + nameValues[i])));
        }
        McaFrameworks frameworks = McaFrameworks.open(ComponentRepository.of(List.of(new PollingProgressComponent())),
                new ParameterRegistry(settings), line -> { });
        ProgressComponent component = (ProgressComponent) frameworks.selection(Framework.PROGRESS).requireSingle();
        return component.createEngine(environment);
    }

    @Test
    void shouldBeFoundByServiceLoaderAndSelected() {
        ComponentRepository repository = ComponentRepository.discover(getClass().getClassLoader());
        assertThat(repository.find(Framework.PROGRESS, "polling")).isPresent();
    }

    @Test
    void theWaitStrategyFollowsItsParameterAndTheHost() {
        assertThat(engineWith(new ProgressEnvironment(2, 2)).waitStrategy()).isEqualTo("spin");
        assertThat(engineWith(new ProgressEnvironment(8, 2)).waitStrategy()).isEqualTo("spin_yield");
        assertThat(engineWith(new ProgressEnvironment(2, 2), "progress_polling_wait_strategy", "spin_park")
                .waitStrategy()).isEqualTo("spin_park");
        assertThat(engineWith(new ProgressEnvironment(2, 2), "progress_polling_wait_strategy", "2")
                .waitStrategy()).isEqualTo("spin_yield");
    }

    @Test
    void asynchronousProgressIsOffUnlessAsked() {
        assertThat(engineWith(new ProgressEnvironment(2, 2)).isAsynchronous()).isFalse();
        assertThat(engineWith(new ProgressEnvironment(2, 2), "progress_polling_async", "lockfree").isAsynchronous())
                .isTrue();
        assertThat(engineWith(new ProgressEnvironment(2, 2), "progress_polling_async", "lock").isAsynchronous())
                .isTrue();
    }

    private static HelperThread.Placement helper(ProgressEnvironment environment, String... nameValues) {
        List<String> all = new ArrayList<>(List.of("progress_polling_async", "lockfree"));
        all.addAll(List.of(nameValues));
        return ((PollingProgressEngine) engineWith(environment, all.toArray(String[]::new))).helperPlacement();
    }

    /**
     * The helper polls only on a CPU of its own. The CPUs come from the environment (the process's,
     * before the rank bound its thread): the helper named on the other rank's CPU sleeps.
     */
    @Test
    void theHelperGoesToASpareCpuAndPollsThereOnly() {
        HelperThread.Placement crossed = helper(new ProgressEnvironment(2, 2, 0, new int[] {0, 1}),
                "progress_polling_async_cpus", "1,0");
        assertThat(crossed.cpus()).containsExactly(1);
        assertThat(crossed.pollNanos()).isZero();
        HelperThread.Placement spare = helper(new ProgressEnvironment(2, 4, 1, new int[] {0, 1, 2, 3}));
        assertThat(spare.cpus()).containsExactly(3);
        assertThat(spare.pollNanos()).isEqualTo(1_000_000_000L);
        HelperThread.Placement none = helper(new ProgressEnvironment(2, 2, 1, new int[] {0, 1}));
        assertThat(none.cpus()).containsExactly(0, 1);
        assertThat(none.pollNanos()).isZero();
        assertThat(helper(new ProgressEnvironment(2, 4, 1, new int[] {0, 1, 2, 3}), "progress_polling_async_poll_us",
                "0").pollNanos()).isZero();
    }

    @Test
    void badHelperPlacementsAreErrorsNamingTheParameterAndTheValue() {
        assertThatThrownBy(() -> engineWith(new ProgressEnvironment(1, 1), "progress_polling_async_nice", "-21"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("progress_polling_async_nice=-21 (command line --mca progress_polling_async_nice)");
        assertThatThrownBy(() -> engineWith(new ProgressEnvironment(1, 1), "progress_polling_async_cpus", "0,x"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("progress_polling_async_cpus=0,x (command line --mca progress_polling_async_cpus)")
                .hasMessageContaining("\"x\" is not a CPU number");
        assertThatThrownBy(() -> engineWith(new ProgressEnvironment(1, 1), "progress_polling_async_poll_us", "-2"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("progress_polling_async_poll_us=-2 (command line --mca progress_polling_async_poll_us)");
        assertThatThrownBy(() -> engineWith(new ProgressEnvironment(1, 1), "progress_polling_async", "sometimes"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("sometimes");
    }

    @Test
    void inconsistentParkPeriodsAreAnErrorNamingBothParameters() {
        assertThatThrownBy(() -> engineWith(new ProgressEnvironment(1, 1),
                "progress_polling_park_min_ns", "5000", "progress_polling_park_max_ns", "10"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("progress_polling_park_min_ns=5000 (command line --mca progress_polling_park_min_ns)")
                .hasMessageContaining("progress_polling_park_max_ns=10");
    }
}
