package org.jmca.tests;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Runs JMCA's commands from {@code bin/} as a user would: a fresh process, a controlled
 * environment (its own HOME and JMCA_HOME, no stray JMCA_MCA_ variables but mpi_warmup_ms=0), a
 * time limit.
 */
final class Jmca {
    static final Path ROOT = Path.of(System.getProperty("jmca.root", "../..")).toAbsolutePath().normalize();
    static final Path EXAMPLE_PLUGIN = Path.of(System.getProperty("jmca.example.plugin", "")).toAbsolutePath();
    static final Path EXAMPLE_COLL_PLUGIN =
            Path.of(System.getProperty("jmca.example.coll.plugin", "")).toAbsolutePath();
    static final Path LIB = ROOT.resolve("dist/target/jmca/lib");
    /** The compiled MPI test programs (org.jmca.tests.programs). */
    static final Path PROGRAMS = Path.of(System.getProperty("jmca.programs", "target/test-classes")).toAbsolutePath();

    /** What a finished command printed and returned. */
    record Result(int status, String out, String err) {
        List<String> outLines() {
            return out.lines().toList();
        }
    }

    private final Map<String, String> environment = new HashMap<>();
    private final Path home;

    /** @param home the HOME and working directory of the command */
    Jmca(Path home) {
        this.home = home;
        System.getenv().forEach((k, v) -> {
            if (!k.startsWith("JMCA_") && !k.equals("CLASSPATH")) {
                environment.put(k, v);
            }
        });
        environment.put("HOME", home.toString());
        environment.put("JMCA_HOME", home.resolve("jmca-home").toString());
        // MPI.Init's warm-up (InitWarmupTest tests it, with --mca, which wins) costs about 2 s a job
        // on 2 cores and checks nothing these tests check.
        environment.put("JMCA_MCA_mpi_warmup_ms", "0");
    }

    Jmca env(String name, String value) {
        environment.put(name, value);
        return this;
    }

    /** Leaves {@code name} out of the commands' environment. */
    Jmca unset(String name) {
        environment.remove(name);
        return this;
    }

    Jmca withExamplePlugin() {
        if (!Files.isRegularFile(EXAMPLE_PLUGIN)) {
            throw new IllegalStateException("the example plug-in jar is missing: " + EXAMPLE_PLUGIN);
        }
        return env("CLASSPATH", EXAMPLE_PLUGIN.toString());
    }

    Jmca withExampleCollPlugin() {
        if (!Files.isRegularFile(EXAMPLE_COLL_PLUGIN)) {
            throw new IllegalStateException("the example coll plug-in jar is missing: " + EXAMPLE_COLL_PLUGIN);
        }
        return env("CLASSPATH", EXAMPLE_COLL_PLUGIN.toString());
    }

    /** Runs {@code bin/<command> args...}. */
    Result run(String command, String... args) {
        List<String> line = new ArrayList<>();
        line.add(ROOT.resolve("bin").resolve(command).toString());
        line.addAll(List.of(args));
        return exec(line);
    }

    /** Runs an MPI test program on {@code np} ranks through bin/jmpirun, with extra jmpirun flags first. */
    Result mpirun(int np, String program, List<String> flags, String... args) {
        List<String> line = new ArrayList<>(List.of("-np", String.valueOf(np)));
        line.addAll(flags);
        // -cp replaces $CLASSPATH, as for java: a plug-in set with withExample*Plugin joins the programs
        String plugin = environment.get("CLASSPATH");
        String classPath = PROGRAMS + (plugin == null ? "" : java.io.File.pathSeparator + plugin);
        line.addAll(List.of("-cp", classPath, "org.jmca.tests.programs." + program));
        line.addAll(List.of(args));
        return run("jmpirun", line.toArray(String[]::new));
    }

    /** Starts a command without waiting; the caller reads its output as it comes. */
    Process start(List<String> command) throws IOException {
        return builder(command).start();
    }

    private ProcessBuilder builder(List<String> command) {
        ProcessBuilder builder = new ProcessBuilder(command).directory(home.toFile());
        builder.environment().clear();
        builder.environment().putAll(environment);
        return builder;
    }

    /** Runs any command line with this environment. */
    Result exec(List<String> command) {
        return exec(command, "");
    }

    /** Runs a command line with this environment, {@code input} as its standard input. */
    Result exec(List<String> command, String input) {
        try {
            Process process = builder(command).start();
            try (var stdin = process.getOutputStream()) {
                stdin.write(input.getBytes(StandardCharsets.UTF_8));
            }
            CompletableFuture<String> out = drain(process.getInputStream());
            CompletableFuture<String> err = drain(process.getErrorStream());
            if (!process.waitFor(120, TimeUnit.SECONDS)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new AssertionError(command + " did not finish within 120 s; its output so far: " + out.getNow("")
                        + err.getNow(""));
            }
            return new Result(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /**
     * Reads {@code stream} to its end on a thread of its own: on the common pool (one thread on
     * 2 cores) stderr was read only after stdout ended, so a job's large stderr filled the pipe.
     */
    private static CompletableFuture<String> drain(InputStream stream) {
        CompletableFuture<String> text = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jmca-test-drain").start(() -> {
            try (stream) {
                text.complete(new String(stream.readAllBytes(), StandardCharsets.UTF_8));
            } catch (IOException e) {
                text.completeExceptionally(new UncheckedIOException(e));
            }
        });
        return text;
    }
}
