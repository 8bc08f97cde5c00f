package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import mpi.Datatype;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Op;
import mpi.Request;
import mpi.UserFunction;
import org.jmca.junit.MpiTest;

/**
 * coll/sm under thread ranks of the real runtime (and 4 ranks on this machine's 2 cores): what
 * the property test of the module cannot reach - the mpi package's operations bound to
 * datatypes (user functions, pair types, derived types), split communicators, and collectives
 * interleaved with point-to-point traffic and with non-blocking calls in flight.
 */
class CollSmThreadRanksTest {

    /**
     * 2x2 int matrices, a derived type of 4 ints, {@code inout = in * inout}: associative, not
     * commutative (derived types reach a user function as ByteBuffers).
     */
    private static final UserFunction MATRIX_PRODUCT = new UserFunction() {
        @Override
        public void call(ByteBuffer in, ByteBuffer inout, int count, Datatype type) {
            IntBuffer a = in.asIntBuffer();
            IntBuffer b = inout.asIntBuffer();
            for (int m = 0; m < count; m++) {
                int o = 4 * m;
                int[] x = {a.get(o), a.get(o + 1), a.get(o + 2), a.get(o + 3)};
                int[] y = {b.get(o), b.get(o + 1), b.get(o + 2), b.get(o + 3)};
                b.put(o, product(x, y));
            }
        }
    };

    private static int[] matrixOf(int rank) {
        return new int[] {1, rank + 1, rank % 3, 1};
    }

    private static int[] product(int[] x, int[] y) {
        return new int[] {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3], x[2] * y[0] + x[3] * y[2],
            x[2] * y[1] + x[3] * y[3]};
    }

    @MpiTest(ranks = {2, 3, 4})
    void reductionsCombineInRankOrderWithUserAndPairAndDerivedTypes() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Datatype matrix = Datatype.createContiguous(4, MPI.INT);
        matrix.commit();
        Op product = new Op(MATRIX_PRODUCT, false);
        int[] expected = matrixOf(0);
        for (int r = 1; r < size; r++) {
            expected = product(expected, matrixOf(r));
        }
        for (int round = 0; round < 3; round++) { // the same bits every time
            int[] result = new int[4];
            world.allReduce(matrixOf(rank), result, 1, matrix, product);
            assertThat(result).as("allreduce of matrices, round %d", round).containsExactly(expected);
        }
        int[] scanned = matrixOf(rank);
        world.scan(scanned, 1, matrix, product);
        int[] prefix = matrixOf(0);
        for (int r = 1; r <= rank; r++) {
            prefix = product(prefix, matrixOf(r));
        }
        assertThat(scanned).as("in-place scan of matrices").containsExactly(prefix);

        int[] pair = {(rank * 7) % size, rank}; // value, index: ties keep the lowest index
        world.allReduce(pair, 1, MPI.INT2, MPI.MINLOC);
        assertThat(pair).containsExactly(0, 0);

        Datatype everyOther = Datatype.createVector(3, 1, 2, MPI.INT);
        everyOther.commit();
        int[] spread = {rank, -1, rank * 10, -1, rank * 100, -1};
        int[] summed = new int[6];
        java.util.Arrays.fill(summed, 42);
        world.allReduce(spread, summed, 1, everyOther, MPI.SUM);
        int ranks = size * (size - 1) / 2;
        assertThat(summed).containsExactly(ranks, 42, ranks * 10, 42, ranks * 100, 42);
        everyOther.free();
        matrix.free();
    }

    @MpiTest(ranks = {2, 3, 4})
    void splitCommunicatorsAndPointToPointInterleaveWithCollectivesInFlight() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        Intracomm half = world.split(rank % 2, -rank); // reversed order within each half
        int halfSize = half.getSize();
        for (int round = 0; round < 50; round++) {
            IntBuffer value = MPI.newIntBuffer(1).put(0, rank + round);
            IntBuffer sum = MPI.newIntBuffer(1);
            Request reduce = half.iAllReduce(value, sum, 1, MPI.INT, MPI.SUM);
            Request barrier = world.iBarrier();
            int[] got = new int[1];
            world.sendRecv(new int[] {rank * 1000 + round}, 1, MPI.INT, (rank + 1) % size, 5, got, 1, MPI.INT,
                    (rank + size - 1) % size, 5);
            assertThat(got[0]).isEqualTo(((rank + size - 1) % size) * 1000 + round);
            int[] bcast = {half.getRank() == 0 ? round * 3 + rank : -1};
            half.bcast(bcast, 1, MPI.INT, 0);
            Request.waitAll(new Request[] {reduce, barrier});
            int expected = 0;
            for (int r = rank % 2; r < size; r += 2) {
                expected += r + round;
            }
            assertThat(sum.get(0)).as("round %d", round).isEqualTo(expected);
            int leader = rank % 2 + 2 * ((size - 1 - rank % 2) / 2); // the highest rank of the half: its rank 0
            assertThat(bcast[0]).isEqualTo(round * 3 + leader);
            int[] all = new int[halfSize];
            half.allGather(new int[] {rank}, 1, MPI.INT, all, 1, MPI.INT);
            for (int i = 0; i < halfSize; i++) {
                assertThat(all[i]).isEqualTo(leader - 2 * i);
            }
        }
        half.free();
    }
}
