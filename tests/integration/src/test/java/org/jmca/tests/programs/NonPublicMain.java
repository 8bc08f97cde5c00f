package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * A main class that is not public, as {@code java} runs it (issue 39): each rank says which
 * command MPI.INFO_ENV gives, and whether that is its own class.
 */
class NonPublicMain {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        LaunchedAs.report(NonPublicMain.class, "static main(String[]) of a class that is not public");
        MPI.Finalize();
    }
}
