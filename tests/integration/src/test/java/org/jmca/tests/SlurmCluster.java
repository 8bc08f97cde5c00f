package org.jmca.tests;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A one-node Slurm on this machine, for jobs under {@code srun --mpi=pmix}: its own munged,
 * slurmctld and slurmd, with a configuration, key, sockets and state in a temporary directory and
 * ports that are free, so that it neither needs nor disturbs a Slurm the machine may have. The
 * node offers more CPUs than the machine has, as a test of four ranks on two cores needs.
 */
final class SlurmCluster implements AutoCloseable {
    static final String[] PACKAGES = {"slurmd", "slurmctld", "slurm-client", "munge"};
    private static final List<String> DAEMONS = List.of("slurmd", "slurmctld", "munged");

    private final Path dir;
    private final Path conf;

    /** Writes the configuration and starts the daemons; ready when the node is idle. */
    SlurmCluster() throws IOException {
        dir = Files.createTempDirectory("jmca-slurm");
        conf = dir.resolve("slurm.conf");
        try {
            start();
        } catch (IOException | RuntimeException e) {
            close();
            throw e;
        }
    }

    /** The configuration file: srun finds the cluster through SLURM_CONF naming it. */
    String conf() {
        return conf.toString();
    }

    private void start() throws IOException {
        Files.createDirectories(dir.resolve("run"));
        Files.createDirectories(dir.resolve("spool/d"));
        Files.createDirectories(dir.resolve("spool/ctld"));
        Files.createDirectories(dir.resolve("tmp"));
        Path key = dir.resolve("munge.key");
        byte[] secret = new byte[1024];
        new SecureRandom().nextBytes(secret);
        Files.write(key, secret);
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("r--------"));
        String socket = dir.resolve("run/munge.socket").toString();
        String node = NamespaceHosts.run("hostname", "-s").strip();
        Files.writeString(conf, String.join("\n",
                "ClusterName=jmcatest",
                "SlurmctldHost=" + node,
                "AuthType=auth/munge",
                "AuthInfo=socket=" + socket,
                "CredType=cred/munge",
                "ProctrackType=proctrack/linuxproc",
                "TaskPlugin=task/none",
                "MpiDefault=none",
                "ReturnToService=2",
                "SlurmUser=root",
                "SlurmdUser=root",
                "SlurmctldPort=" + freePort(),
                "SlurmdPort=" + freePort(),
                "SlurmctldPidFile=" + dir.resolve("run/slurmctld.pid"),
                "SlurmdPidFile=" + dir.resolve("run/slurmd.pid"),
                "SlurmdSpoolDir=" + dir.resolve("spool/d"),
                "StateSaveLocation=" + dir.resolve("spool/ctld"),
                // the pmix plugin's directories (spmix_appdir_<uid>_<job>) would collide across clusters in /tmp
                "TmpFS=" + dir.resolve("tmp"),
                // a task that fails ends its step, as mpirun does
                "KillOnBadExit=1",
                "SlurmctldLogFile=" + dir.resolve("slurmctld.log"),
                "SlurmdLogFile=" + dir.resolve("slurmd.log"),
                "SchedulerType=sched/backfill",
                "SelectType=select/cons_tres",
                "SelectTypeParameters=CR_Core",
                // the node claims 8 CPUs whatever the machine has
                "SlurmdParameters=config_overrides",
                "NodeName=" + node + " CPUs=8 State=UNKNOWN",
                "PartitionName=jmca Nodes=ALL Default=YES MaxTime=INFINITE State=UP OverSubscribe=YES",
                ""), StandardCharsets.UTF_8);
        daemon("munged", "--force", "--key-file=" + key, "--socket=" + socket,
                "--pid-file=" + dir.resolve("run/munged.pid"), "--log-file=" + dir.resolve("munged.log"),
                "--seed-file=" + dir.resolve("munge.seed"));
        daemon("slurmctld", "-f", conf.toString());
        daemon("slurmd", "-f", conf.toString());
        awaitIdle(node);
    }

    private void daemon(String name, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(name));
        command.addAll(List.of(args));
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SLURM_CONF", conf.toString());
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        try {
            // each daemonizes: the started process returns once the daemon runs
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException(name + " did not start: " + output.strip() + log(name));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private void awaitIdle(String node) throws IOException {
        Instant deadline = Instant.now().plus(Duration.ofSeconds(60));
        String state = "";
        while (Instant.now().isBefore(deadline)) {
            state = slurm("sinfo", "-h", "-n", node, "-o", "%t").strip();
            if (state.equals("idle")) {
                return;
            }
            try {
                Thread.sleep(500);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IOException(e);
            }
        }
        throw new IOException("the Slurm node " + node + " is not idle after 60 s (sinfo says '" + state + "')"
                + log("slurmd") + log("slurmctld"));
    }

    private String log(String daemon) {
        Path log = dir.resolve(daemon + ".log");
        try {
            List<String> lines = Files.exists(log) ? Files.readAllLines(log) : List.of();
            return lines.isEmpty() ? "" : "\n" + daemon + ".log ends: "
                    + String.join("\n", lines.subList(Math.max(0, lines.size() - 10), lines.size()));
        } catch (IOException e) {
            return "";
        }
    }

    private void cancelJobs() {
        try {
            slurm("scancel", "--full", "--partition=jmca");
            Instant deadline = Instant.now().plus(Duration.ofSeconds(20));
            while (!slurm("squeue", "-h").isBlank() && Instant.now().isBefore(deadline)) {
                Thread.sleep(200);
            }
        } catch (IOException e) {
            System.err.println("SlurmCluster: cannot cancel the jobs: " + e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Runs a Slurm client command on this cluster; its output. */
    private String slurm(String... command) throws IOException {
        ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
        builder.environment().put("SLURM_CONF", conf.toString());
        return new String(builder.start().getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    }

    private static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        }
    }

    /** Cancels what still runs, stops the daemons (slurmd first) and removes the directory. */
    @Override
    public void close() {
        cancelJobs();
        for (String daemon : DAEMONS) {
            Path pidFile = dir.resolve("run/" + daemon + ".pid");
            try {
                if (Files.exists(pidFile)) {
                    long pid = Long.parseLong(Files.readString(pidFile).strip());
                    ProcessHandle.of(pid).ifPresent(p -> {
                        p.destroy();
                        try {
                            p.onExit().get(10, TimeUnit.SECONDS);
                        } catch (Exception e) {
                            p.destroyForcibly();
                        }
                    });
                }
            } catch (IOException | NumberFormatException e) {
                System.err.println("SlurmCluster: cannot stop " + daemon + ": " + e);
            }
        }
        try (var paths = Files.walk(dir)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
