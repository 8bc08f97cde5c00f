package org.jmca.tests.programs;

import java.nio.IntBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * The rest of the point-to-point surface on 4 ranks: synchronous, buffered and ready sends,
 * sendRecv and sendRecvReplace, PROC_NULL, cancel, truncation, dup and split, COMM_SELF, TAG_UB.
 */
public final class Semantics {
    private Semantics() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int right = (rank + 1) % size;
        int left = (rank + size - 1) % size;

        Check.equal((Integer) world.getAttr(MPI.TAG_UB), (1 << 30) - 1, "TAG_UB");

        // sendRecv round the ring, in both directions of data flow.
        int[] got = new int[1];
        Status s = world.sendRecv(new int[] {rank}, 1, MPI.INT, right, 1, got, 1, MPI.INT, left, 1);
        Check.equal(got[0], left, "sendRecv value");
        Check.equal(s.getSource(), left, "sendRecv source");
        long[] value = {rank};
        world.sendRecvReplace(value, 1, MPI.LONG, right, 2, left, 2);
        Check.equal(value[0], left, "sendRecvReplace value");

        // Synchronous send: pairs (0,1), (2,3).
        int partner = rank ^ 1;
        if (partner < size) {
            double[] d = {rank + 0.5};
            if (rank % 2 == 0) {
                world.sSend(d, 1, MPI.DOUBLE, partner, 3);
                world.recv(d, 1, MPI.DOUBLE, partner, 3);
                Check.that(d[0] == partner + 0.5, "ssend echo");
            } else {
                world.recv(d, 1, MPI.DOUBLE, partner, 3);
                world.rSend(new double[] {rank + 0.5}, 1, MPI.DOUBLE, partner, 3);
            }
        }

        // Buffered send with an attached buffer, types other than int: char, short, boolean, float.
        MPI.attachBuffer(new byte[4096]);
        world.bSend(new char[] {'j', 'm'}, 2, MPI.CHAR, right, 4);
        world.bSend(new short[] {(short) rank}, 1, MPI.SHORT, right, 5);
        world.bSend(new boolean[] {true, false, rank % 2 == 0}, 3, MPI.BOOLEAN, right, 6);
        world.bSend(new float[] {rank * 1.5f}, 1, MPI.FLOAT, right, 7);
        char[] chars = new char[2];
        short[] shorts = new short[1];
        boolean[] booleans = new boolean[3];
        float[] floats = new float[1];
        world.recv(chars, 2, MPI.CHAR, left, 4);
        world.recv(shorts, 1, MPI.SHORT, left, 5);
        world.recv(booleans, 3, MPI.BOOLEAN, left, 6);
        world.recv(floats, 1, MPI.FLOAT, left, 7);
        Check.that(chars[0] == 'j' && chars[1] == 'm', "chars");
        Check.equal(shorts[0], left, "short");
        Check.that(booleans[0] && !booleans[1] && booleans[2] == (left % 2 == 0), "booleans");
        Check.that(floats[0] == left * 1.5f, "float");
        MPI.detachBuffer();

        // PROC_NULL: completes at once, status says so.
        world.send(new int[1], 1, MPI.INT, MPI.PROC_NULL, 8);
        Status none = world.recv(new int[1], 1, MPI.INT, MPI.PROC_NULL, 8);
        Check.equal(none.getSource(), MPI.PROC_NULL, "PROC_NULL source");
        Check.equal(none.getCount(MPI.INT), 0, "PROC_NULL count");

        // Cancel a receive nobody will match.
        Request never = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.ANY_SOURCE, 9999);
        never.cancel();
        Check.that(never.waitStatus().isCancelled(), "cancelled receive");

        // Truncation is an error of class ERR_TRUNCATE under ERRORS_RETURN.
        world.setErrhandler(MPI.ERRORS_RETURN);
        if (rank == 0) {
            world.send(new int[] {1, 2, 3, 4}, 4, MPI.INT, 1, 10);
        } else if (rank == 1) {
            try {
                world.recv(new int[2], 2, MPI.INT, 0, 10);
                Check.that(false, "a truncated receive did not fail");
            } catch (MPIException e) {
                Check.equal(e.getErrorClass(), MPI.ERR_TRUNCATE, "truncation error class");
            }
        }
        world.setErrhandler(MPI.ERRORS_ARE_FATAL);

        // dup: same ranks, separate messages; split: even and odd ranks, ordered by descending key.
        Intracomm dup = world.dup();
        Check.equal(dup.getRank(), rank, "dup rank");
        dup.send(new int[] {-1}, 1, MPI.INT, right, 11);
        world.send(new int[] {rank}, 1, MPI.INT, right, 11);
        int[] fromWorld = new int[1];
        world.recv(fromWorld, 1, MPI.INT, left, 11);
        Check.equal(fromWorld[0], left, "world message not taken by dup");
        dup.recv(fromWorld, 1, MPI.INT, left, 11);
        Check.equal(fromWorld[0], -1, "dup message");

        Check.equal(mpi.Comm.compare(world, world), MPI.IDENT, "compare with itself");
        Check.equal(mpi.Comm.compare(world, dup), MPI.CONGRUENT, "compare with its dup");
        Check.equal(world.getGroup().getSize(), size, "group size");
        Check.equal(world.getGroup().getRank(), rank, "group rank");

        Intracomm parity = world.split(rank % 2, -rank);
        int[] inWorld = mpi.Group.translateRanks(parity.getGroup(), new int[] {0}, world.getGroup());
        Check.equal(inWorld[0] % 2, rank % 2, "translateRanks: the split's rank 0 has this rank's parity");
        int half = (size + 1 - rank % 2) / 2;
        Check.equal(parity.getSize(), half, "split size");
        Check.equal(parity.getRank(), (half - 1) - rank / 2, "split rank ordered by key");
        int[] sum = {rank};
        for (int r = 0; r < parity.getSize(); r++) {
            if (r != parity.getRank()) {
                parity.send(new int[] {rank}, 1, MPI.INT, r, 12);
            }
        }
        for (int r = 0; r < parity.getSize() - 1; r++) {
            int[] v = new int[1];
            Status st = parity.recv(v, 1, MPI.INT, MPI.ANY_SOURCE, 12);
            Check.equal(v[0] % 2, rank % 2, "split member parity");
            Check.that(st.getSource() >= 0 && st.getSource() < parity.getSize(), "split source is a rank in the split");
            sum[0] += v[0];
        }
        Intracomm none2 = world.split(rank == 0 ? 0 : MPI.UNDEFINED, 0);
        Check.that(rank == 0 ? !none2.isNull() && none2.getSize() == 1 : none2.isNull(), "split with MPI.UNDEFINED");
        parity.barrier();
        dup.free();

        // COMM_SELF: a message to oneself.
        Check.equal(MPI.COMM_SELF.getSize(), 1, "COMM_SELF size");
        Request self = MPI.COMM_SELF.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, 0, 13);
        MPI.COMM_SELF.send(new int[] {rank}, 1, MPI.INT, 0, 13);
        Check.equal(self.waitStatus().getSource(), 0, "COMM_SELF source");

        world.barrier();
        if (rank == 0) {
            System.out.println("PASS semantics");
        }
        MPI.Finalize();
    }
}
