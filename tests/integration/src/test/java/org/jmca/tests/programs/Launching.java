package org.jmca.tests.programs;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import mpi.MPI;

/**
 * What the launcher gives a program. {@code stdin}: rank 0 reads its standard input and sends
 * the number of lines to every rank. {@code late R SECONDS}: rank R sleeps before MPI.Init.
 * {@code env NAME}: every rank prints its rank, the job's size, its host and the variable.
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
        } else if (args[0].equals("env")) {
            System.out.println("rank " + rank + " of " + MPI.COMM_WORLD.getSize() + " on " + MPI.getProcessorName()
                    + ": " + args[1] + "=" + System.getenv(args[1]));
        }
        MPI.Finalize();
    }
}
