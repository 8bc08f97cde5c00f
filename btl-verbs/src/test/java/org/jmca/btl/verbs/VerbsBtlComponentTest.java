package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.stream.Stream;
import org.jmca.mca.Availability;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;
import org.junit.jupiter.api.Test;

class VerbsBtlComponentTest {

    /** The component with its parameters registered, set from the command line as given. */
    static VerbsBtlComponent component(Map<String, String> settings) {
        ValueSource commandLine = new ValueSource(ValueSource.Kind.COMMAND_LINE, "--mca");
        ParameterRegistry registry = new ParameterRegistry(settings.entrySet().stream()
                .map(e -> new RawValue(e.getKey(), e.getValue(), commandLine)).toList());
        VerbsBtlComponent component = new VerbsBtlComponent();
        component.registerParameters(registry.prefixed("btl_verbs"));
        return component;
    }

    @Test
    void byDefaultItDeclinesWithTheReasonAndNamesTheSoftwareDevice() throws IOException {
        Availability availability = component(Map.of()).probe();
        assertThat(availability).isInstanceOf(Availability.Unavailable.class);
        String reason = ((Availability.Unavailable) availability).reason();
        assertThat(reason).endsWith("btl_verbs_device=soft runs the software verbs device instead");
        if (rdmaDevicesInSysfs() == 0) {
            assertThat(reason).startsWith("no RDMA device: /sys/class/infiniband lists none (no HCA, and no RoCE or"
                    + " soft-RoCE link)");
        } else if (!libraryInstalled()) {
            assertThat(reason).contains("libibverbs.so.1 is not installed");
        }
    }

    @Test
    void theSoftwareDeviceIsAvailableWhereCrossMemoryCopiesAre() {
        Availability availability = component(Map.of("btl_verbs_device", "soft")).probe();
        if (SoftVerbs.probe() == null) {
            assertThat(availability).isEqualTo(Availability.AVAILABLE);
        } else {
            assertThat(((Availability.Unavailable) availability).reason()).contains("cross-memory");
        }
    }

    @Test
    void badSettingsAreRefusedNamingTheValueAndWhereItCameFrom() {
        assertThatThrownBy(() -> component(Map.of("btl_verbs_device", "mlx9")))
                .hasMessageContaining("btl_verbs_device from command line --mca").hasMessageContaining("mlx9")
                .hasMessageContaining("0:auto, 1:soft");
        assertThatThrownBy(() -> component(Map.of("btl_verbs_conn_policy", "fifo")).settings())
                .hasMessage("btl_verbs_conn_policy=fifo (command line --mca) is not one of lru, lru-m");
        assertThatThrownBy(() -> component(Map.of("btl_verbs_max_conn", "-1")).settings())
                .hasMessageContaining("btl_verbs_max_conn=-1 (command line --mca) must be 0 (no limit) or positive");
        assertThatThrownBy(() -> component(Map.of("btl_verbs_max_send_size", "64k")).settings())
                .hasMessageContaining("btl_verbs_max_send_size=64k (command line --mca) is above a quarter of"
                        + " btl_verbs_soft_ring_size=128k (default)");
        assertThatThrownBy(() -> component(Map.of("btl_verbs_eager_limit", "20000")).settings())
                .hasMessageContaining("btl_verbs_max_send_size=16k (default) is below btl_verbs_eager_limit=20000"
                        + " (command line --mca)");
        assertThat(component(Map.of("btl_verbs_conn_policy", "lru-m", "btl_verbs_max_conn", "2")).settings())
                .satisfies(s -> {
                    assertThat(s.policy()).isEqualTo(VictimPolicy.LRU_M);
                    assertThat(s.maxConnections()).isEqualTo(2);
                });
    }

    @Test
    void theLibrarysOwnSurveyAgreesWithTheKernel() throws IOException {
        RdmaCore.Survey survey = RdmaCore.surveyLibrary();
        assertThat(survey.devices().isEmpty()).isEqualTo(survey.whyNone() != null);
        assertThat(survey.devices()).hasSizeLessThanOrEqualTo(rdmaDevicesInSysfs());
        if (!libraryInstalled()) {
            assertThat(survey.whyNone()).contains("libibverbs.so.1 is not installed");
        } else if (rdmaDevicesInSysfs() == 0) {
            assertThat(survey.whyNone()).startsWith("no RDMA device: ");
        }
    }

    private static boolean libraryInstalled() {
        return Files.exists(Path.of("/usr/lib/x86_64-linux-gnu/libibverbs.so.1"))
                || Files.exists(Path.of("/lib/x86_64-linux-gnu/libibverbs.so.1"));
    }

    /** What rdma-core lists comes from /sys/class/infiniband. */
    private static int rdmaDevicesInSysfs() throws IOException {
        if (!Files.isDirectory(RdmaCore.SYSFS)) {
            return 0;
        }
        try (Stream<Path> devices = Files.list(RdmaCore.SYSFS)) {
            return (int) devices.count();
        }
    }

}
