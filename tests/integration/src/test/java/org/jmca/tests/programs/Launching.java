package org.jmca.tests.programs;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;

/**
 * What the launcher gives a program. {@code stdin}: rank 0 reads its standard input and sends
 * the number of lines to every rank. {@code late R SECONDS}: rank R sleeps before MPI.Init.
 * {@code env NAME}: every rank prints its rank, the job's size, its host and the variable.
 * {@code placement}: every rank prints the CPUs its own thread may run on, those of its JVM's JIT
 * compiler threads, and how many processors its JVM says it has.
 */
public final class Launching {
    private Launching() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("late") && Integer.parseInt(System.getenv("JMCA_RANK")) == Integer.parseInt(args[1])) {
            Thread.sleep(Long.parseLong(args[2]) * 1000);
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (args[0].equals("stdin")) {
            int[] lines = new int[1];
            if (rank == 0) {
                BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
                while (in.readLine() != null) {
                    lines[0]++;
                }
                for (int r = 1; r < MPI.COMM_WORLD.getSize(); r++) {
                    MPI.COMM_WORLD.send(lines, 1, MPI.INT, r, 0);
                }
            } else {
                MPI.COMM_WORLD.recv(lines, 1, MPI.INT, 0, 0);
            }
            System.out.println("rank " + rank + " knows rank 0 read " + lines[0] + " lines");
        } else if (args[0].equals("placement")) {
            String compilers = "none seen";
            for (Path task : Files.list(Path.of("/proc/self/task")).toList()) {
                if (Files.readString(task.resolve("comm")).startsWith("C2 CompilerThre")) {
                    compilers = cpus(task.resolve("status"));
                }
            }
            System.out.println("rank " + rank + ": thread " + cpus(Path.of("/proc/thread-self/status"))
                    + ", compilers " + compilers + ", processors " + Runtime.getRuntime().availableProcessors());
        } else if (args[0].equals("env")) {
            System.out.println("rank " + rank + " of " + MPI.COMM_WORLD.getSize() + " on " + MPI.getProcessorName()
                    + ": " + args[1] + "=" + System.getenv(args[1]));
        }
        MPI.Finalize();
    }

    /** The Cpus_allowed_list of a task's status file. */
    private static String cpus(Path status) throws java.io.IOException {
        return Files.readAllLines(status).stream().filter(l -> l.startsWith("Cpus_allowed_list:"))
                .map(l -> l.substring(l.indexOf(':') + 1).strip()).findFirst().orElse("?");
    }
}
