package org.jmca.rte.launcher;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jmca.config.info.InfoSection;
import org.jmca.mca.os.ThreadPlacement;

/**
 * jmca-info's lines on the ahead-of-time caches the build trained (dist/train-aot): for each,
 * whether this machine's JVM takes it, tried the way jmpirun would start the JVM - with
 * {@code -XX:AOTMode=on}, which makes a cache the JVM refuses an error - and if not, the JVM's own
 * reason. A refused cache costs a job its fast start and first calls, and jmpirun only says that
 * it happened (once a job); this says why.
 */
public final class AotInfo implements InfoSection {
    /** The caches: file, and what starts with it. */
    private record Cache(String file, String user, boolean rank) {
    }

    private static final List<Cache> CACHES = List.of(
            new Cache(AotCache.RANK_CACHE, "the ranks' JVMs", true),
            new Cache(AotCache.LAUNCHER_CACHE, "jmpirun", false),
            new Cache(AotCache.THREADS_LAUNCHER_CACHE, "jmpirun --ranks-as threads", false));

    @Override
    public List<String> lines() {
        String lib = System.getProperty("jmca.lib");
        if (lib == null) {
            return List.of("AOT caches: unknown (jmca.lib is not set: start jmca-info through bin/jmca-info)");
        }
        Path libDir = Path.of(lib);
        List<CompletableFuture<String>> checks = new ArrayList<>();
        for (Cache cache : CACHES) {
            checks.add(CompletableFuture.supplyAsync(() -> check(libDir, cache)));
        }
        List<String> lines = new ArrayList<>();
        lines.add("AOT caches (" + libDir.resolveSibling("aot") + "):");
        for (int i = 0; i < CACHES.size(); i++) {
            lines.add("  " + CACHES.get(i).user() + " (" + Path.of(CACHES.get(i).file()).getFileName() + "): "
                    + checks.get(i).join());
        }
        return lines;
    }

    private static String check(Path lib, Cache cache) {
        Path file = lib.resolveSibling(cache.file());
        if (!Files.isRegularFile(file)) {
            return "none: the build made none (dist/train-aot failed, or the tree was built without it)";
        }
        if (!AotCache.isFresh(file, lib)) {
            return "not used: a jar of " + lib + " is newer than it (rebuild: ./mvnw -q install -DskipTests)";
        }
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED", "-XX:AOTCache=" + file, "-XX:AOTMode=on",
                "-Xlog:disable", "-Xlog:all=warning:stdout:none"));
        if (cache.rank()) {
            // a full node: one rank per CPU, each JVM sized as jmpirun sizes it
            command.addAll(1, RankShare.options(true, true, ThreadPlacement.allowedCpus().length));
        }
        command.addAll(List.of("-cp", lib.resolve("*").toString(), "-version"));
        try {
            Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return "unknown: the JVM that tried it did not finish within 60 s";
            }
            if (process.exitValue() == 0) {
                return "used";
            }
            List<String> reasons = output.lines().map(String::strip)
                    .filter(l -> !l.isEmpty() && !l.equals("Error occurred during initialization of VM"))
                    .distinct().toList();
            return "not used; the JVM says: " + String.join(" / ", reasons);
        } catch (IOException e) {
            return "unknown: cannot start a JVM to try it: " + e.getMessage();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown: interrupted";
        }
    }
}
