package org.jmca.tests.programs;

import mpi.MPI;
import mpi.MPIException;

/**
 * Under ERRORS_RETURN every bad argument is an MPIException of the right class whose message
 * names the value; with {@code fatal} as argument, rank 1 makes one bad call under the default
 * handler instead, which must abort the job.
 */
public final class BadInput {
    private interface Call {
        void run() throws MPIException;
    }

    private BadInput() {
    }

    private static void expect(int errorClass, String fragment, Call call) {
        try {
            call.run();
            throw new AssertionError("expected error class " + errorClass + " (" + fragment + "), but the call returned");
        } catch (MPIException e) {
            Check.equal(e.getErrorClass(), errorClass, "error class of '" + e.getMessage() + "'");
            Check.that(e.getMessage().contains(fragment), "message '" + e.getMessage() + "' lacks '" + fragment + "'");
        }
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int size = MPI.COMM_WORLD.getSize();
        if (args.length > 0 && args[0].equals("fatal")) {
            if (MPI.COMM_WORLD.getRank() == 1) {
                MPI.COMM_WORLD.send(new int[1], 1, MPI.INT, size + 3, 0);
            }
            MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            return;
        }
        MPI.COMM_WORLD.setErrhandler(MPI.ERRORS_RETURN);
        int[] buf = new int[4];
        expect(MPI.ERR_RANK, "invalid rank " + size, () -> MPI.COMM_WORLD.send(buf, 1, MPI.INT, size, 0));
        expect(MPI.ERR_RANK, "invalid rank -5", () -> MPI.COMM_WORLD.send(buf, 1, MPI.INT, -5, 0));
        expect(MPI.ERR_RANK, "invalid source rank " + (size + 1),
                () -> MPI.COMM_WORLD.recv(buf, 1, MPI.INT, size + 1, 0));
        expect(MPI.ERR_COUNT, "count -1", () -> MPI.COMM_WORLD.send(buf, -1, MPI.INT, 0, 0));
        expect(MPI.ERR_TAG, "invalid tag " + (1 << 30), () -> MPI.COMM_WORLD.send(buf, 1, MPI.INT, 0, 1 << 30));
        expect(MPI.ERR_TAG, "invalid tag -7", () -> MPI.COMM_WORLD.send(buf, 1, MPI.INT, 0, -7));
        expect(MPI.ERR_BUFFER, "buffer too small", () -> MPI.COMM_WORLD.send(buf, 5, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, "buffer too small", () -> MPI.COMM_WORLD.recv(buf, 9, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, "null", () -> MPI.COMM_WORLD.send(null, 1, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, "needs 24 bytes", () -> MPI.COMM_WORLD.send(buf, 3, MPI.DOUBLE, 0, 0));
        expect(MPI.ERR_BUFFER, "is not a buffer", () -> MPI.COMM_WORLD.send(new Object[1], 1, MPI.INT, 0, 0));
        expect(MPI.ERR_BUFFER, "buffer too small",
                () -> MPI.COMM_WORLD.iSend(MPI.newIntBuffer(2), 3, MPI.INT, 0, 0));
        expect(MPI.ERR_TYPE, "datatype is null", () -> MPI.COMM_WORLD.send(buf, 1, null, 0, 0));
        expect(MPI.ERR_BUFFER, "attachBuffer", () -> MPI.COMM_WORLD.bSend(new byte[100_000], 100_000, MPI.BYTE, 0, 0));
        MPI.COMM_WORLD.barrier();
        if (MPI.COMM_WORLD.getRank() == 0) {
            System.out.println("PASS bad input");
        }
        MPI.Finalize();
    }
}
