package org.jmca.mca.contract;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The threads of this JVM that a component may have started, by thread id: platform threads
 * outside the JDK's own groups, and virtual threads (but the JDK's I/O pollers), which
 * {@link Thread#getAllStackTraces()} does not list and the JDK's JSON thread dump does. What the
 * contract compares before and after a module's life to find the threads it leaves behind.
 *
 * <p>The dump is asked for by reflection: the tests compile inside the module {@code org.jmca.mca},
 * which reads neither {@code java.management} nor {@code jdk.management}; they run on the class
 * path, where both are there.
 */
final class LiveThreads {
    /** Groups of the JDK's own threads: reference handling, cleaners, virtual threads' carriers, the common pool. */
    private static final Set<String> JDK_GROUPS = Set.of("system", "InnocuousThreadGroup", "CarrierThreads",
            "InnocuousForkJoinWorkerThreadGroup");
    /** A virtual thread in HotSpotDiagnosticMXBean's JSON thread dump: its id, then its name. */
    private static final Pattern VIRTUAL = Pattern.compile(
            "^\"(\\d+)\",\\s*\"time\": \"[^\"]*\",\\s*\"virtual\": true,\\s*\"name\": \"((?:[^\"\\\\]|\\\\.)*)\"");
    /**
     * The loops of the JDK's own virtual threads, the pollers that the first blocking I/O of a
     * virtual thread starts once per JVM (a thread merely blocked in I/O has {@code Poller.poll}
     * on its stack, not these).
     */
    private static final List<String> JDK_POLLER_LOOPS = List.of("sun.nio.ch.Poller.subPollerLoop",
            "sun.nio.ch.Poller.pollerLoop");

    private LiveThreads() {
    }

    /** Thread id → name of every live thread a component may have started. */
    static Map<Long, String> now() {
        Map<Long, String> threads = new HashMap<>();
        for (Thread thread : Thread.getAllStackTraces().keySet()) {
            ThreadGroup group = thread.getThreadGroup();
            if (thread.isAlive() && (group == null || !JDK_GROUPS.contains(group.getName()))) {
                threads.put(thread.threadId(), thread.getName());
            }
        }
        for (String entry : dump().split("\"tid\": ")) {
            Matcher virtual = VIRTUAL.matcher(entry);
            if (virtual.find() && JDK_POLLER_LOOPS.stream().noneMatch(entry::contains)) {
                threads.put(Long.parseLong(virtual.group(1)), "virtual " + virtual.group(2).replace("\\/", "/"));
            }
        }
        return threads;
    }

    /**
     * The threads alive now that were not in {@code before}, given up to {@code graceTurns} looks
     * 20 ms apart to end (a thread told to stop may take a moment to run out).
     */
    static Map<Long, String> startedSince(Map<Long, String> before, int graceTurns) {
        Map<Long, String> left = new TreeMap<>();
        for (int turn = 0; turn <= graceTurns; turn++) {
            left.clear();
            now().forEach((id, name) -> {
                if (!before.containsKey(id)) {
                    left.put(id, name);
                }
            });
            if (left.isEmpty()) {
                break;
            }
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        return left;
    }

    /** {@code HotSpotDiagnosticMXBean.dumpThreads(file, ThreadDumpFormat.JSON)}, read back. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private static String dump() {
        try {
            Path file = Files.createTempFile("btl-contract-threads", ".json");
            Files.delete(file); // dumpThreads refuses to overwrite
            try {
                Class<?> bean = Class.forName("com.sun.management.HotSpotDiagnosticMXBean");
                Class<? extends Enum> format = (Class<? extends Enum>) Class.forName(
                        "com.sun.management.HotSpotDiagnosticMXBean$ThreadDumpFormat");
                Object diagnostics = Class.forName("java.lang.management.ManagementFactory")
                        .getMethod("getPlatformMXBean", Class.class).invoke(null, bean);
                bean.getMethod("dumpThreads", String.class, format)
                        .invoke(diagnostics, file.toString(), Enum.valueOf(format, "JSON"));
                return Files.readString(file);
            } finally {
                Files.deleteIfExists(file);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot dump this JVM's threads to look for leaked ones", e);
        } catch (ReflectiveOperationException e) {
            Throwable cause = e instanceof InvocationTargetException t ? t.getCause() : e;
            throw new IllegalStateException("cannot dump this JVM's threads to look for leaked ones: " + cause, cause);
        }
    }
}
