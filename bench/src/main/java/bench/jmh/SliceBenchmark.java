package bench.jmh;

import java.nio.ByteBuffer;
import java.util.concurrent.TimeUnit;
import mpi.MPI;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * What {@code MPI.slice} of a direct buffer costs beside java.nio's own slice: it also remembers
 * the buffer it cut from (so that a negative-stride type reaches its memory), and a program such
 * as bench.OneSidedStudy slices once per operation. Needs no MPI job (MPI.slice is a plain
 * static call):
 * {@code java -cp "bench/target/jmca-bench.jar:bench/target/compare-lib/*:dist/target/jmca/lib/*"
 * org.openjdk.jmh.Main bench.jmh.SliceBenchmark}
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 3, time = 1)
@Measurement(iterations = 5, time = 1)
@Fork(2)
public class SliceBenchmark {
    private final ByteBuffer parent = ByteBuffer.allocateDirect(1 << 16);
    private int offset;

    @Benchmark
    public ByteBuffer mpiSlice() {
        offset = (offset + 8) & 1023;
        return MPI.slice(parent, 8 + offset);
    }

    @Benchmark
    public ByteBuffer nioSlice() {
        offset = (offset + 8) & 1023;
        return parent.duplicate().clear().position(8 + offset).slice();
    }
}
