package org.jmca.mca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.ComponentStatus.State;
import org.jmca.mca.FakeComponents.FakeBtl;
import org.jmca.mca.FakeComponents.FakeProgress;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;
import org.jmca.mca.param.ValueSource.Kind;
import org.junit.jupiter.api.Test;

class McaFrameworksTest {
    private final List<String> verbose = new ArrayList<>();

    private McaFrameworks open(List<? extends Component> components, RawValue... settings) {
        return McaFrameworks.open(ComponentRepository.of(components), new ParameterRegistry(List.of(settings)),
                verbose::add);
    }

    private static RawValue cli(String name, String value) {
        return new RawValue(name, value, new ValueSource(Kind.COMMAND_LINE, "--mca " + name));
    }

    @Test
    void singleSelectShouldKeepTheHighestPriorityAndSayWhyTheOthersLost() {
        McaFrameworks frameworks = open(List.of(new FakeProgress("low", 10), new FakeProgress("high", 20)));
        FrameworkSelection selection = frameworks.selection(Framework.PROGRESS);

        assertThat(selection.requireSingle().name()).isEqualTo("high");
        assertThat(selection.status("low").orElseThrow().describe())
                .isEqualTo("available, not selected: its priority 10 is below progress/high's 20");
    }

    @Test
    void aPriorityParameterShouldChangeTheWinner() {
        McaFrameworks frameworks = open(List.of(new FakeProgress("low", 10), new FakeProgress("high", 20)),
                cli("progress_low_priority", "30"));
        assertThat(frameworks.selection(Framework.PROGRESS).requireSingle().name()).isEqualTo("low");
    }

    @Test
    void aTieShouldGoToTheFirstNameSoEveryRankDecidesAlike() {
        McaFrameworks frameworks = open(List.of(new FakeProgress("zeta", 5), new FakeProgress("alpha", 5)));
        FrameworkSelection selection = frameworks.selection(Framework.PROGRESS);
        assertThat(selection.requireSingle().name()).isEqualTo("alpha");
        assertThat(selection.status("zeta").orElseThrow().reason()).contains("ties with progress/alpha");
    }

    @Test
    void unavailableFailingAndNegativePriorityComponentsShouldSayWhy() {
        McaFrameworks frameworks = open(List.of(
                new FakeProgress("nodevice", 50, () -> Availability.unavailable("no RDMA device found")),
                new FakeProgress("broken", 40, () -> {
                    throw new IllegalStateException("boom");
                }),
                new FakeProgress("disabled", 30),
                new FakeProgress("fallback", 1)),
                cli("progress_disabled_priority", "-1"));
        FrameworkSelection selection = frameworks.selection(Framework.PROGRESS);

        assertThat(selection.requireSingle().name()).isEqualTo("fallback");
        assertThat(selection.status("nodevice").orElseThrow().describe())
                .isEqualTo("not available: no RDMA device found");
        assertThat(selection.status("broken").orElseThrow().state()).isEqualTo(State.FAILED);
        assertThat(selection.status("broken").orElseThrow().reason()).contains("boom");
        assertThat(selection.status("disabled").orElseThrow().reason())
                .isEqualTo("its priority -1 (command line --mca progress_disabled_priority) is negative");
    }

    @Test
    void aComponentNamedInAnIncludeListButUnavailableShouldBeReportedWithItsReason() {
        FakeProgress nodevice = new FakeProgress("nodevice", 50, () -> Availability.unavailable("no RDMA device found"));
        McaFrameworks named = open(List.of(nodevice, new FakeProgress("fallback", 1)),
                cli("progress", "nodevice,fallback"));
        assertThat(named.warnings()).contains("progress/nodevice was asked for (progress=nodevice,fallback,"
                + " command line --mca progress) but cannot run here: no RDMA device found");

        McaFrameworks unnamed = open(List.of(nodevice, new FakeProgress("fallback", 1)));
        assertThat(unnamed.warnings()).noneMatch(w -> w.contains("nodevice"));
    }

    @Test
    void requireSingleShouldListEveryReasonWhenNothingCanBeUsed() {
        McaFrameworks frameworks = open(List.of(
                new FakeProgress("nodevice", 50, () -> Availability.unavailable("no RDMA device found"))));
        assertThatThrownBy(() -> frameworks.selection(Framework.PROGRESS).requireSingle())
                .hasMessage("no progress component can be used: progress/nodevice not available: no RDMA device found");
        assertThatThrownBy(() -> frameworks.selection(Framework.PML).requireSingle())
                .hasMessage("no pml component can be used: none was found on the class path");
    }

    @Test
    void multiSelectShouldKeepEveryAvailableComponentExceptExcludedOnes() {
        McaFrameworks frameworks = open(List.of(new FakeBtl("self"), new FakeBtl("sm"), new FakeBtl("tcp")),
                cli("btl", "^tcp"), cli("btl_sm_priority", "7"));
        FrameworkSelection selection = frameworks.selection(Framework.BTL);

        assertThat(selection.selected()).extracting(Component::name).containsExactly("sm", "self");
        assertThat(selection.status("tcp").orElseThrow().describe())
                .isEqualTo("not used: excluded by btl=^tcp (command line --mca btl)");
    }

    @Test
    void includeListShouldKeepOutTheComponentsItDoesNotName() {
        McaFrameworks frameworks = open(List.of(new FakeBtl("self"), new FakeBtl("tcp")), cli("btl", "self"));
        assertThat(frameworks.selection(Framework.BTL).selected()).extracting(Component::name).containsExactly("self");
        assertThat(frameworks.selection(Framework.BTL).status("tcp").orElseThrow().state()).isEqualTo(State.EXCLUDED);
    }

    @Test
    void aListNamingAMissingComponentShouldFailTheOpen() {
        assertThatThrownBy(() -> open(List.of(new FakeBtl("self")), cli("btl", "nonexistent")))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("available btl components: self");
    }

    @Test
    void componentParametersShouldBeRegisteredWithTheirPrefixAndFrozenAtOpen() {
        McaFrameworks frameworks = open(List.of(new FakeBtl("tcp")), cli("btl_tcp_eager_limit", "64k"));
        var param = frameworks.parameters().find("btl_tcp_eager_limit").orElseThrow();
        assertThat(param.get()).isEqualTo(65_536L);
        assertThat(param.isReadOnly()).isTrue();
        assertThat(frameworks.parameters().find("btl_tcp_priority")).isPresent();
        assertThat(frameworks.parameters().find("btl")).isPresent();
        assertThat(frameworks.parameters().find("btl_base_verbose")).isPresent();
    }

    @Test
    void aWrongTypedValueShouldFailTheOpen() {
        assertThatThrownBy(() -> open(List.of(new FakeBtl("tcp")), cli("btl_tcp_eager_limit", "big")))
                .isInstanceOf(ParameterException.class)
                .hasMessageContaining("btl_tcp_eager_limit from command line --mca btl_tcp_eager_limit");
    }

    @Test
    void unknownNamesShouldBecomeWarnings() {
        McaFrameworks frameworks = open(List.of(new FakeBtl("tcp")), cli("btl_tcp_eagr_limit", "1k"));
        assertThat(frameworks.warnings()).singleElement().asString().contains("did you mean 'btl_tcp_eager_limit'?");
    }

    @Test
    void verboseShouldReportEveryComponentOfTheFramework() {
        open(List.of(new FakeProgress("a", 2), new FakeProgress("b", 1)), cli("progress_base_verbose", "1"));
        assertThat(verbose).containsExactly("progress/a: selected (priority 2)",
                "progress/b: available, not selected: its priority 1 is below progress/a's 2");
    }

    @Test
    void closeShouldCloseEveryProbedComponent() {
        FakeProgress a = new FakeProgress("a", 2);
        FakeProgress b = new FakeProgress("b", 1);
        open(List.of(a, b)).close();
        assertThat(a.closed).isTrue();
        assertThat(b.closed).isTrue();
    }
}
