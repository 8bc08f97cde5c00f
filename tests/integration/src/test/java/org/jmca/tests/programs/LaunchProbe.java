package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * A program for the launch API's tests: says hello with its rank and size; {@code fail R} makes
 * rank R exit with status 3 without finalizing, {@code hang} waits until it is stopped.
 */
public final class LaunchProbe {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        System.out.println("hello from rank " + rank + " of " + MPI.COMM_WORLD.getSize());
        if (System.getenv("LAUNCH_PROBE") != null) {
            System.out.println("LAUNCH_PROBE=" + System.getenv("LAUNCH_PROBE"));
        }
        if (args.length == 2 && args[0].equals("fail") && Integer.parseInt(args[1]) == rank) {
            System.err.println("rank " + rank + " gives up");
            System.exit(3);
        }
        if (args.length == 1 && args[0].equals("hang")) {
            System.out.println("ready");
            Thread.sleep(Long.MAX_VALUE);
        }
        MPI.COMM_WORLD.barrier();
        MPI.Finalize();
    }
}
