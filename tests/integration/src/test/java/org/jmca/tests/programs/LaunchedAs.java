package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** What the programs started the ways java starts them print. */
final class LaunchedAs {
    private LaunchedAs() {
    }

    /** "rank R: KIND; command C (its main class|not its main class)". */
    static void report(Class<?> main, String kind) throws MPIException {
        String command = MPI.INFO_ENV.get("command");
        System.out.println("rank " + MPI.COMM_WORLD.getRank() + ": " + kind + "; command " + command + " ("
                + (main.getName().equals(command) ? "its main class" : "not its main class") + ")");
    }
}
