package org.jmca.rte.launcher;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.util.List;
import java.util.stream.Stream;

/**
 * The ahead-of-time cache that the build trains for the ranks (dist/train-aot): their JVMs start
 * with JMCA's classes loaded and linked and with the JIT profiles of a training job (JEP 483 and
 * 515), which halved the JIT's work in a rank and its start-up time.
 *
 * <p>A cache is used only while it is newer than every jar beside it (a jar rebuilt without a new
 * training would otherwise meet classes cached from its old self), and only when the user's JVM
 * options bring no AOT or class-data-sharing option of their own. The JVM's own AOT messages are
 * silenced: a cache the JVM cannot use (say, for a JVM flag it was not trained with) only costs
 * speed, and its error lines must not mix with the program's output.
 */
final class AotCache {
    /** The ranks' cache, in the {@code aot} folder beside {@code lib} (not in it: lib is a module path). */
    static final String RANK_CACHE = "aot/jmca-rank.aot";
    /** jmpirun's own (bin/jmpirun picks it), and the one for jobs of thread ranks, which run in jmpirun's JVM. */
    static final String LAUNCHER_CACHE = "aot/jmca-launcher.aot";
    static final String THREADS_LAUNCHER_CACHE = "aot/jmca-launcher-threads.aot";
    /**
     * The cache brings the training run's method counters along with its profiles, and the
     * training made the classes the cache now holds (lambda forms, FFM stubs) with the JDK's
     * class-file API: a rank started with the cache counted 12,442 calls of
     * StackMapGenerator.processBlock before MPI.Init, where it makes some 35 classes, and C2
     * spent 410 ms of the rank's first seconds on the class-file API. Its thresholds are raised
     * a hundredfold, so that only real use compiles it.
     */
    static final String CLASS_FILE_THRESHOLDS =
            "-XX:CompileCommand=CompileThresholdScaling,jdk.internal.classfile.*::*,100.0";

    private AotCache() {
    }

    /** The ranks' JVM options for the cache in {@code lib}, or none. */
    static List<String> options(Path lib, List<String> userJvmArgs) {
        Path cache = lib.resolveSibling(RANK_CACHE);
        if (bringsOwnArchive(userJvmArgs) || !isFresh(cache, lib)) {
            return List.of();
        }
        // every tag set with aot or cds (aot+codecache+stubs too): a cache the JVM cannot use in full
        // is slower, not wrong, and its warnings must not land in the program's standard output
        return List.of("-XX:AOTCache=" + cache, "-Xlog:aot*=off", "-Xlog:cds*=off",
                "-XX:CompileCommand=quiet", CLASS_FILE_THRESHOLDS);
    }

    /**
     * Why the ranks start without the cache in {@code lib} though there is one: it is older than a
     * jar; null when they use it, when there is none, or when the user brings an AOT or CDS option.
     */
    static String whyUnused(Path lib, List<String> userJvmArgs) {
        Path cache = lib.resolveSibling(RANK_CACHE);
        if (bringsOwnArchive(userJvmArgs) || !Files.isRegularFile(cache) || isFresh(cache, lib)) {
            return null;
        }
        return "the ranks' ahead-of-time cache " + cache + " is older than a jar beside it, so they start without it"
                + " (rebuild: ./mvnw -q install -DskipTests)";
    }

    /** Whether the user's JVM options bring an AOT or class-data-sharing option of their own. */
    private static boolean bringsOwnArchive(List<String> userJvmArgs) {
        return userJvmArgs.stream().anyMatch(a -> a.startsWith("-XX:AOT") || a.startsWith("-Xshare")
                || a.contains("SharedArchiveFile") || a.contains("ArchiveClassesAtExit"));
    }

    /** Whether {@code cache} exists and no jar of {@code lib} is newer. */
    static boolean isFresh(Path cache, Path lib) {
        try (Stream<Path> jars = Files.list(lib)) {
            FileTime made = Files.getLastModifiedTime(cache);
            return jars.filter(p -> p.toString().endsWith(".jar"))
                    .allMatch(jar -> lastModified(jar).compareTo(made) <= 0);
        } catch (IOException e) {
            return false;
        }
    }

    private static FileTime lastModified(Path file) {
        try {
            return Files.getLastModifiedTime(file);
        } catch (IOException e) {
            return FileTime.fromMillis(Long.MAX_VALUE);
        }
    }
}
