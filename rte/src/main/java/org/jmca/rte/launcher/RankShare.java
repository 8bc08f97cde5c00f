package org.jmca.rte.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jmca.mca.os.ThreadPlacement;

/**
 * A rank JVM sized for its share of its host, as the host that starts it (jmpirun here, a host
 * daemon elsewhere) computes it:
 * <ul>
 *   <li>heap: three quarters of the host's memory shared by its ranks, at most 31 GiB - a JVM's
 *       own default is a quarter of the host's memory each, and from 32 GiB of heap up it turns
 *       compressed object pointers off, which the ranks' AOT cache was trained with, so the cache
 *       was refused on hosts of 128 GiB and more;</li>
 *   <li>CPUs ({@code -XX:ActiveProcessorCount}): the host's CPUs shared by its ranks, at least one.
 *       Each JVM otherwise sizes its JIT compiler and garbage-collector thread pools for the whole
 *       host (12 compiler threads per JVM on 16 cores), as if it had every core to itself, while
 *       on a full node every core is some rank's. The program sees the same share in
 *       {@code availableProcessors()}, as a bound rank of Open MPI sees its binding.</li>
 * </ul>
 * Whatever the user sets (a heap or processor-count option in {@code --jvm-arg} or
 * {@code JMCA_JAVA_OPTS}) is left alone.
 */
final class RankShare {
    /** What the launcher leaves to each host to size: "heap", "cpus", both (comma-separated) or neither. */
    static final String ENV = "JMCA_JVM_SHARE";
    private static final long LARGEST_COMPRESSED_HEAP_MIB = 31 * 1024;
    private static final long SMALLEST_HEAP_MIB = 256;

    private RankShare() {
    }

    /** What the user's JVM options leave to JMCA to size, for {@link #ENV}. */
    static String leftToSize(List<String> userJvmArgs) {
        boolean heap = userJvmArgs.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxHeapSize")
                || a.startsWith("-XX:MaxRAM"));
        boolean cpus = userJvmArgs.stream().noneMatch(a -> a.startsWith("-XX:ActiveProcessorCount"));
        return heap && cpus ? "heap,cpus" : heap ? "heap" : cpus ? "cpus" : "";
    }

    /**
     * {@code command} (a {@code java} command line) with the options of a rank's share of this host
     * inserted after the {@code java} executable, as {@code env}'s {@link #ENV} asks; the command
     * itself when it asks for nothing.
     */
    static List<String> apply(List<String> command, Map<String, String> env, int localRanks) {
        String wanted = env.getOrDefault(ENV, "");
        if (wanted.isEmpty()) {
            return command;
        }
        List<String> sized = new ArrayList<>(command);
        sized.addAll(1, options(wanted.contains("heap"), wanted.contains("cpus"), localRanks));
        return sized;
    }

    static List<String> options(boolean heap, boolean cpus, int localRanks) {
        List<String> options = new ArrayList<>();
        if (heap) {
            long memoryMib = hostMemoryMib();
            if (memoryMib > 0) {
                long share = Math.min(LARGEST_COMPRESSED_HEAP_MIB, Math.max(SMALLEST_HEAP_MIB,
                        memoryMib * 3 / 4 / Math.max(1, localRanks)));
                options.add("-Xmx" + share + "m");
            }
        }
        if (cpus) {
            options.add("-XX:ActiveProcessorCount=" + Math.max(1, ThreadPlacement.allowedCpus().length
                    / Math.max(1, localRanks)));
        }
        return options;
    }

    /** This host's memory (MemTotal), MiB; 0 where /proc does not say. */
    private static long hostMemoryMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: the JVM's own default
        }
        return 0;
    }
}
