package org.jmca.tests.programs;

import mpi.MPI;
import org.jmca.launch.RankMain;

/** Lambdas for the launch API's tests, written in a class with nothing but the mpi package around it. */
public final class Lambdas {
    /** Times the lambda ran in this copy of the class: each rank's own. */
    private static int calls;

    private Lambdas() {
    }

    /** Says hello with its rank, its first argument and how often this copy of the class ran it. */
    public static RankMain hello(String greeting) {
        return args -> {
            MPI.Init(args);
            calls++;
            System.out.println(greeting + " " + args[0] + " from rank " + MPI.COMM_WORLD.getRank() + " of "
                    + MPI.COMM_WORLD.getSize() + ", call " + calls);
            MPI.Finalize();
        };
    }
}
