package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.jmca.mca.Availability;
import org.junit.jupiter.api.Test;

class VerbsBtlComponentTest {

    @Test
    void declinesWithTheReasonAndNeverThrows() throws IOException {
        Availability availability = new VerbsBtlComponent().probe();
        assertThat(availability).isInstanceOf(Availability.Unavailable.class);
        String reason = ((Availability.Unavailable) availability).reason();
        if (rdmaDevicesInSysfs() == 0) {
            assertThat(reason).isEqualTo("no RDMA device: /sys/class/infiniband lists none (no HCA, and no RoCE or"
                    + " soft-RoCE link)");
        } else if (!libraryInstalled()) {
            assertThat(reason).contains("libibverbs.so.1 is not installed");
        } else {
            assertThat(reason).startsWith("found ").contains("not built yet");
        }
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
