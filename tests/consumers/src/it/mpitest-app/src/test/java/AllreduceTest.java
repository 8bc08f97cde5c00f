import static org.junit.jupiter.api.Assertions.assertEquals;

import mpi.MPI;
import mpi.MPIException;
import org.jmca.junit.MpiTest;

class AllreduceTest {
    @MpiTest(ranks = {1, 2, 4}, mca = "btl=self,thread")
    void allreduceSumsTheRanks() throws MPIException {
        int[] sum = {MPI.COMM_WORLD.getRank()};
        MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
        int size = MPI.COMM_WORLD.getSize();
        assertEquals(size * (size - 1) / 2, sum[0]);
    }
}
