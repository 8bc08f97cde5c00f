package bench;

import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import mpi.MPI;
import mpi.MPIException;

/**
 * Warm-up for the point-to-point benchmarks: untimed sweeps over every size, for at least a
 * second and until a whole sweep passes on every rank without the JIT compiling anything. Both
 * matter with ranks bound to cores, where the JIT compiles on the rank's own core: a size first
 * met in the timed sweep makes the JIT recompile while the clock runs, and a compilation still
 * running takes time from the measurement. (Waiting for the JIT asleep instead made the next
 * measurement slower still: the first size of a sweep took 3.8-9.9 us instead of 0.13.)
 */
final class Warmup {
    /** Least time of untimed sweeps. */
    private static final long LEAST_NANOS = 1_000_000_000L;
    /** Most time of untimed sweeps, should the JIT never go quiet. */
    private static final long MOST_NANOS = 30_000_000_000L;

    /** One untimed pass over the benchmark's sizes. */
    interface Sweep {
        void run() throws MPIException;
    }

    private Warmup() {
    }

    /** Runs {@code sweep} until it has run {@link #LEAST_NANOS} and the last pass compiled nothing on any rank. */
    static void sweep(Sweep sweep) throws MPIException {
        CompilationMXBean jit = ManagementFactory.getCompilationMXBean();
        boolean watchJit = jit != null && jit.isCompilationTimeMonitoringSupported();
        long start = System.nanoTime();
        int[] again = {1};
        while (again[0] == 1) {
            long compiledBefore = watchJit ? jit.getTotalCompilationTime() : 0;
            sweep.run();
            long elapsed = System.nanoTime() - start;
            boolean compiling = watchJit && jit.getTotalCompilationTime() != compiledBefore;
            again[0] = elapsed < LEAST_NANOS || compiling && elapsed < MOST_NANOS ? 1 : 0;
            MPI.COMM_WORLD.allReduce(again, 1, MPI.INT, MPI.MAX);
        }
    }
}
