package org.jmca.mca.os;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class ThreadPlacementTest {
    @Test
    void aCpuListIsReadAsTasksetWritesIt() {
        assertThat(CpuList.parse("1,0")).containsExactly(1, 0);
        assertThat(CpuList.parse(" 0, 2,4-6 ")).containsExactly(0, 2, 4, 5, 6);
        assertThat(CpuList.parse("")).isEmpty();
        for (String bad : new String[] {"a", "3-1", "1,,2", "1-2-3", "-1"}) {
            assertThatThrownBy(() -> CpuList.parse(bad))
                    .as(bad).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("is not a CPU number");
        }
    }

    @Test
    void theAllowedCpusAreThoseTheKernelLetsThisProcessUse() throws Exception {
        int[] allowed = ThreadPlacement.allowedCpus();
        assertThat(allowed).isNotEmpty();
        assertThat(allowed).containsExactly(CpuList.parse(statusLine(Path.of("/proc/self/status"))));
    }

    @Test
    void shouldBindTheCallingThreadAloneToItsCpu() throws Exception {
        int[] allowed = ThreadPlacement.allowedCpus();
        int cpu = allowed[allowed.length - 1];
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicReference<String> boundTo = new AtomicReference<>();
        Thread thread = new Thread(() -> {
            failure.set(ThreadPlacement.bind(cpu));
            try {
                boundTo.set(statusLine(Path.of("/proc/thread-self/status")));
            } catch (Exception e) {
                boundTo.set(e.toString());
            }
        });
        thread.start();
        thread.join();
        assertThat(failure.get()).isNull();
        assertThat(boundTo.get()).isEqualTo(String.valueOf(cpu));
        // the process, and so this test's own thread, keeps every CPU it had
        assertThat(CpuList.parse(statusLine(Path.of("/proc/thread-self/status")))).containsExactly(allowed);
    }

    @Test
    void aCpuTheKernelCannotTakeIsReportedNotThrown() throws Exception {
        AtomicReference<String> failure = new AtomicReference<>();
        Thread thread = new Thread(() -> failure.set(ThreadPlacement.bind(5000)));
        thread.start();
        thread.join();
        assertThat(failure.get()).isEqualTo("is not bound: CPU 5000 is beyond 1023");
    }

    private static String statusLine(Path status) throws Exception {
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElseThrow();
    }
}
