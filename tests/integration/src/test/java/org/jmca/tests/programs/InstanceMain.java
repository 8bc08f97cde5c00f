package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/** An instance main method with its arguments (JEP 512), in a class that is not public. */
class InstanceMain {
    private final String made = "made by its constructor";

    void main(String[] args) throws MPIException {
        MPI.Init(args);
        LaunchedAs.report(InstanceMain.class, "instance main(String[]), " + made + ", args " + String.join(",", args));
        MPI.Finalize();
    }
}
