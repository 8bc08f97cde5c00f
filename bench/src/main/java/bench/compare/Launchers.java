package bench.compare;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Starts the two sides: JMCA's Java benchmarks through bin/jmpirun and the C programs under Open
 * MPI's mpirun, each over the chosen transport, ranks bound to cores when there are enough.
 */
final class Launchers {
    private static final long TIMEOUT_MINUTES = 5;

    private final Path root;
    private final int np;
    private final Path cPrograms;
    private String vethSubnet;

    Launchers(Path root, int np) {
        this.root = root;
        this.np = np;
        this.cPrograms = root.resolve("bench/target/c");
    }

    /** Makes the two namespace hosts of {@value #VETH}; {@link #removeVethHosts()} removes them. */
    void makeVethHosts() throws IOException, InterruptedException {
        vethSubnet = run(List.of(root.resolve("bench/netns-hosts").toString(), "up"), "bench/netns-hosts up").strip();
    }

    void removeVethHosts() throws IOException, InterruptedException {
        if (vethSubnet != null) {
            run(List.of(root.resolve("bench/netns-hosts").toString(), "down"), "bench/netns-hosts down");
            vethSubnet = null;
        }
    }

    boolean openMpiInstalled() {
        return onPath("mpicc") && onPath("mpirun");
    }

    private static boolean onPath(String command) {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(dir, command))) {
                return true;
            }
        }
        return false;
    }

    /** Compiles the C counterparts of {@code benchmarks} with mpicc. */
    void compile(List<Benchmark> benchmarks) throws IOException, InterruptedException {
        Files.createDirectories(cPrograms);
        for (String program : benchmarks.stream().map(b -> b.cProgram).distinct().toList()) {
            Path source = root.resolve("bench/c/" + program + ".c");
            if (!Files.isRegularFile(source)) {
                throw new IllegalStateException("no C counterpart " + source);
            }
            run(List.of("mpicc", "-O2", "-o", cPrograms.resolve(program).toString(), source.toString()),
                    "mpicc " + source.getFileName());
        }
    }

    private int ranks(Benchmark benchmark) {
        return benchmark.pointToPoint ? 2 : np;
    }

    private boolean bind(Benchmark benchmark) {
        return ranks(benchmark) <= Runtime.getRuntime().availableProcessors();
    }

    /**
     * {@value #VETH}: tcp between two namespace hosts (bench/netns-hosts), ranks spread over them
     * by node and not bound (binding in each namespace would put both on core 0).
     */
    static final String VETH = "veth";

    /** {@value #THREAD}: JMCA's ranks as threads of one JVM (btl/thread); Open MPI's as processes over vader. */
    static final String THREAD = "thread";

    private String vethHosts(Benchmark benchmark) {
        return "jmcab1:" + ranks(benchmark) + ",jmcab2:" + ranks(benchmark);
    }

    String jmca(Benchmark benchmark, String transport, List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(root.resolve("bin/jmpirun").toString(), "-np",
                String.valueOf(ranks(benchmark))));
        if (transport.equals(VETH)) {
            command.addAll(List.of("--host", vethHosts(benchmark), "--map-by", "node", "--mca", "plm_rsh_agent",
                    "ip netns exec", "--mca", "btl", "self,sm,tcp", "--mca", "btl_tcp_if_include", vethSubnet));
        } else if (transport.equals(THREAD)) {
            command.addAll(List.of("--ranks-as", "threads", "--mca", "btl", "self,thread"));
        } else {
            if (bind(benchmark)) {
                command.addAll(List.of("--bind-to", "core"));
            }
            command.addAll(List.of("--mca", "btl", "self," + transport));
        }
        command.addAll(List.of("-cp", root.resolve("bench/target/jmca-bench.jar").toString(),
                "bench." + benchmark.javaClass));
        command.addAll(args);
        return run(command, "JMCA " + benchmark.id());
    }

    /** mpirun and its options for {@code transport}, up to the program. */
    private List<String> mpirun(Benchmark benchmark, String transport) {
        List<String> command = new ArrayList<>(List.of("mpirun", "-np", String.valueOf(ranks(benchmark)),
                "--mca", "pml", "ob1"));
        if (transport.equals(VETH)) {
            // the namespaces have no ssh and no names in DNS: ORTE's daemons are started through
            // bench/netns-rsh directly by mpirun, and talk over the bridge's subnet
            command.addAll(List.of("--host", vethHosts(benchmark), "--map-by", "node", "--bind-to", "none",
                    "--mca", "plm_rsh_agent", root.resolve("bench/netns-rsh").toString(),
                    "--mca", "plm_rsh_no_tree_spawn", "1", "--mca", "routed", "direct",
                    "--mca", "oob_tcp_if_include", vethSubnet, "--mca", "btl", "self,vader,tcp",
                    "--mca", "btl_tcp_if_include", vethSubnet));
        } else {
            command.addAll(List.of("--mca", "btl", "self," + (transport.equals("sm") || transport.equals(THREAD)
                    ? "vader" : transport)));
            command.addAll(bind(benchmark) ? List.of("--bind-to", "core") : List.of("--oversubscribe"));
        }
        return command;
    }

    String openMpi(Benchmark benchmark, String transport, List<String> args) throws IOException, InterruptedException {
        List<String> command = mpirun(benchmark, transport);
        command.add(cPrograms.resolve(benchmark.cProgram).toString());
        command.addAll(args);
        return run(command, "Open MPI " + benchmark.id());
    }

    /**
     * Open MPI's Java bindings, built by bench/ompi-java-jar: the command's prefix that runs a
     * Java class on them ({@code java -Djava.library.path=... -cp mpi.jar:jmca-bench.jar}), or
     * the reason they cannot run here.
     */
    record JavaBindings(List<String> java, String whyNot) {
    }

    JavaBindings openMpiJava() throws InterruptedException {
        try {
            Path jar = Path.of(run(List.of(root.resolve("bench/ompi-java-jar").toString()), "bench/ompi-java-jar").strip());
            String libDir = Files.readString(jar.resolveSibling("libdir")).strip();
            return new JavaBindings(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djava.library.path=" + libDir, "-cp",
                    jar + ":" + root.resolve("bench/target/jmca-bench.jar")), null);
        } catch (IOException | IllegalStateException e) {
            String message = e.getMessage() == null ? e.toString() : e.getMessage();
            return new JavaBindings(null, message.lines().reduce((first, last) -> last).orElse(message));
        }
    }

    /** The same Java benchmark class under Open MPI's mpirun, on its Java bindings. */
    String openMpiJava(JavaBindings bindings, Benchmark benchmark, String transport, List<String> args)
            throws IOException, InterruptedException {
        List<String> command = mpirun(benchmark, transport);
        command.addAll(bindings.java());
        command.add("bench." + benchmark.javaClass);
        command.addAll(args);
        return run(command, "Open MPI Java " + benchmark.id());
    }

    /** The first line of {@code mpirun --version}, or null. */
    String openMpiVersion() {
        try {
            return run(List.of("mpirun", "--version"), "mpirun --version").lines().findFirst().orElse(null);
        } catch (IOException | RuntimeException e) {
            return null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    /**
     * Runs a command; returns its standard output, or throws with its error output if it fails
     * twice. Once is forgiven: Open MPI's launch through bench/netns-rsh now and then hangs
     * before any rank starts.
     */
    private String run(List<String> command, String what) throws IOException, InterruptedException {
        try {
            return runOnce(command, what);
        } catch (IllegalStateException e) {
            System.err.println("compare: " + e.getMessage().lines().findFirst().orElse(what) + "; trying once more");
            return runOnce(command, what);
        }
    }

    private String runOnce(List<String> command, String what) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(command);
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT", "1");
        builder.environment().put("OMPI_ALLOW_RUN_AS_ROOT_CONFIRM", "1");
        builder.environment().put("OMPI_MCA_btl_vader_single_copy_mechanism", "cma");
        // files, not pipes: a hung job must not block the reading of its output past the timeout
        Path output = Files.createTempFile("compare", ".out");
        Path errors = Files.createTempFile("compare", ".err");
        builder.redirectOutput(output.toFile()).redirectError(errors.toFile());
        Process process = builder.start();
        try {
            if (!process.waitFor(TIMEOUT_MINUTES, TimeUnit.MINUTES)) {
                process.descendants().forEach(ProcessHandle::destroyForcibly);
                process.destroyForcibly();
                throw new IllegalStateException(what + " did not finish in " + TIMEOUT_MINUTES + " minutes: "
                        + String.join(" ", command));
            }
            if (process.exitValue() != 0) {
                throw new IllegalStateException(what + " failed with status " + process.exitValue() + ": "
                        + String.join(" ", command) + "\n" + Files.readString(errors));
            }
            return Files.readString(output, StandardCharsets.UTF_8);
        } finally {
            Files.delete(output);
            Files.delete(errors);
        }
    }
}
