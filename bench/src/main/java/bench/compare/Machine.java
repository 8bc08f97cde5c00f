package bench.compare;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;

/** The machine a comparison ran on, in one line for the summary. */
final class Machine {
    private Machine() {
    }

    static String describe(Launchers launchers) {
        String cpu = "unknown CPU";
        long memoryKb = 0;
        try {
            cpu = Files.readAllLines(Path.of("/proc/cpuinfo")).stream().filter(l -> l.startsWith("model name"))
                    .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse(cpu);
            memoryKb = Files.readAllLines(Path.of("/proc/meminfo")).stream().filter(l -> l.startsWith("MemTotal"))
                    .map(l -> Long.parseLong(l.replaceAll("\\D", ""))).findFirst().orElse(0L);
        } catch (IOException | RuntimeException e) {
            // the description is informative only
        }
        String openMpi = launchers.openMpiVersion();
        return LocalDate.now() + ", " + Runtime.getRuntime().availableProcessors() + " CPUs (" + cpu + "), "
                + (memoryKb / 1024 / 1024) + " GiB, Java " + Runtime.version()
                + (openMpi == null ? "" : ", " + openMpi);
    }
}
