package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** A static main without parameters (JEP 512): MPI.Init gets no arguments. */
public class NoArgsMain {
    static void main() throws MPIException {
        MPI.Init(new String[0]);
        LaunchedAs.report(NoArgsMain.class, "static main()");
        MPI.Finalize();
    }
}
