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
        // an initial heap too: one above the share would stop the JVM from starting
        boolean heap = userJvmArgs.stream().noneMatch(a -> a.startsWith("-Xmx") || a.startsWith("-XX:MaxHeapSize")
                || a.startsWith("-XX:MaxRAM") || a.startsWith("-Xms") || a.startsWith("-XX:InitialHeapSize")
                || a.startsWith("-XX:MinHeapSize"));
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

    /**
     * The memory the ranks may use, MiB: the host's (MemTotal), or less where this process's
     * control group (a container, a Slurm job) limits it; 0 where /proc does not say.
     */
    private static long hostMemoryMib() {
        long total = 0;
        try {
            for (String line : Files.readAllLines(Path.of("/proc/meminfo"))) {
                if (line.startsWith("MemTotal:")) {
                    total = Long.parseLong(line.replaceAll("[^0-9]", "")) / 1024;
                }
            }
        } catch (IOException | NumberFormatException e) {
            return 0; // not Linux: the JVM's own default
        }
        long limit = cgroupLimitMib();
        return limit > 0 && limit < total ? limit : total;
    }

    /** This process's control-group memory limit, MiB (v2 memory.max, v1 memory.limit_in_bytes); 0 if none. */
    private static long cgroupLimitMib() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/cgroup"))) {
                // "0::/path" (v2) or "4:memory:/path" (v1); a namespaced group shows "/"
                String[] fields = line.split(":", 3);
                if (fields.length < 3) {
                    continue;
                }
                Path limit = fields[0].equals("0") && fields[1].isEmpty()
                        ? Path.of("/sys/fs/cgroup" + fields[2], "memory.max")
                        : fields[1].equals("memory") ? Path.of("/sys/fs/cgroup/memory" + fields[2], "memory.limit_in_bytes")
                        : null;
                if (limit != null && Files.isReadable(limit)) {
                    String value = Files.readString(limit).trim();
                    if (!value.equals("max")) {
                        return Long.parseLong(value) / (1024 * 1024);
                    }
                }
            }
        } catch (IOException | NumberFormatException e) {
            // no control group to read: the host's memory
        }
        return 0;
    }
}
