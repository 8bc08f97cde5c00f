package bench;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;
import java.util.concurrent.Callable;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

/**
 * The irregular workload of the ACTS experiment: every rank fetches blocks from other ranks, as
 * NWChem's tasks fetch blocks of global arrays, and serves the fetches of the others meanwhile.
 * A fetch goes to one of the rank's current working set of peers ({@code -k} of them, one of
 * them replaced every {@code -c} fetches) with probability {@code -p}, else to a random rank:
 * irregular, with the partial regularity that LRU-M is meant to keep. A fetch is a 64-byte request
 * answered by a block of 1 to {@code -b} bytes; between fetches the rank computes {@code -u}
 * microseconds. When a rank has made its fetches it enters a non-blocking barrier and serves
 * until every rank has.
 *
 * <p>Rank 0 prints one line: the wall time of the fetch phase (the slowest rank's), and over the
 * ranks the verbs counters: most connections open at once (largest and mean), connection memory
 * (the largest peak times the receive-buffer bytes of a connection), tear-downs, reconnections.
 */
@Command(name = "bench.IrregularExchange", mixinStandardHelpOptions = true,
        description = "Irregular block fetches between random peers (the ACTS experiment's workload).")
public final class IrregularExchange implements Callable<Integer> {
    @Option(names = "-n", description = "Fetches per rank. Default: ${DEFAULT-VALUE}.")
    int fetches = 1000;

    @Option(names = "-k", description = "Peers in a rank's working set. Default: ${DEFAULT-VALUE}.")
    int workingSet = 3;

    @Option(names = "-c", description = "Fetches between changes of the working set. Default: ${DEFAULT-VALUE}.")
    int churn = 50;

    @Option(names = "-p", description = "Share of fetches that go to the working set. Default: ${DEFAULT-VALUE}.")
    double locality = 0.8;

    @Option(names = "-b", description = "Largest block, bytes. Default: ${DEFAULT-VALUE}.")
    int maxBlock = 32 * 1024;

    @Option(names = "-u", description = "Microseconds of computation per fetch. Default: ${DEFAULT-VALUE}.")
    int computeMicros = 50;

    @Option(names = "-s", description = "Seed. Default: ${DEFAULT-VALUE}.")
    long seed = 2026;

    private static final int REQUEST = 1;
    private static final int REPLY = 2;
    private static final int REQUEST_BYTES = 64;

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int status = new CommandLine(new IrregularExchange()).execute(args);
        MPI.Finalize();
        System.exit(status);
    }

    @Override
    public Integer call() throws MPIException {
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        SplittableRandom random = new SplittableRandom(seed * 7919 + rank);
        int[] working = new int[Math.min(workingSet, size - 1)];
        for (int i = 0; i < working.length; i++) {
            working[i] = otherThan(rank, size, random);
        }
        ByteBuffer request = MPI.newByteBuffer(REQUEST_BYTES);
        ByteBuffer incoming = MPI.newByteBuffer(REQUEST_BYTES);
        ByteBuffer block = MPI.newByteBuffer(maxBlock);
        ByteBuffer reply = MPI.newByteBuffer(maxBlock);
        world.barrier();
        long start = System.nanoTime();
        Request serve = world.iRecv(incoming, REQUEST_BYTES, MPI.BYTE, MPI.ANY_SOURCE, REQUEST);
        long served = 0;
        for (int f = 0; f < fetches; f++) {
            if (f % churn == 0 && working.length > 0) {
                working[random.nextInt(working.length)] = otherThan(rank, size, random);
            }
            int peer = working.length > 0 && random.nextDouble() < locality ? working[random.nextInt(working.length)]
                    : otherThan(rank, size, random);
            int bytes = 1 + random.nextInt(maxBlock);
            request.putInt(0, bytes);
            Request answer = world.iRecv(reply, maxBlock, MPI.BYTE, peer, REPLY);
            world.send(request, REQUEST_BYTES, MPI.BYTE, peer, REQUEST);
            while (!answer.test()) {
                served += serveOne(world, serve, incoming, block);
                if (serve.isNull()) {
                    serve = world.iRecv(incoming, REQUEST_BYTES, MPI.BYTE, MPI.ANY_SOURCE, REQUEST);
                }
            }
            compute(computeMicros);
        }
        Request done = world.iBarrier();
        while (!done.test()) {
            served += serveOne(world, serve, incoming, block);
            if (serve.isNull()) {
                serve = world.iRecv(incoming, REQUEST_BYTES, MPI.BYTE, MPI.ANY_SOURCE, REQUEST);
            }
        }
        serve.cancel();
        serve.waitFor();
        double seconds = (System.nanoTime() - start) / 1e9;
        report(world, seconds, served);
        return 0;
    }

    /** Answers one request if one has come; returns 1 if it did. */
    private static int serveOne(Intracomm world, Request serve, ByteBuffer incoming, ByteBuffer block)
            throws MPIException {
        Status status = serve.testStatus();
        if (status == null) {
            return 0;
        }
        world.send(block, incoming.getInt(0), MPI.BYTE, status.getSource(), REPLY);
        return 1;
    }

    private static int otherThan(int rank, int size, SplittableRandom random) {
        return (rank + 1 + random.nextInt(size - 1)) % size;
    }

    private static void compute(int micros) {
        long until = System.nanoTime() + micros * 1000L;
        while (System.nanoTime() < until) {
            Thread.onSpinWait();
        }
    }

    private static void report(Intracomm world, double seconds, long served) throws MPIException {
        double[] time = {seconds};
        world.reduce(time, 1, MPI.DOUBLE, MPI.MAX, 0);
        long peak = counter("btl_verbs_peak_connections");
        long[] sums = {peak, counter("btl_verbs_tear_downs"), counter("btl_verbs_reconnections"), served};
        long[] maxima = {peak};
        world.reduce(sums, sums.length, MPI.LONG, MPI.SUM, 0);
        world.reduce(maxima, 1, MPI.LONG, MPI.MAX, 0);
        if (world.getRank() == 0) {
            long perConnection = counter("btl_verbs_connection_bytes");
            int size = world.getSize();
            System.out.printf("ranks=%d seconds=%.3f peak_conn_max=%d peak_conn_mean=%.2f conn_memory_kib=%d"
                            + " tear_downs=%d reconnections=%d served=%d%n", size, time[0], maxima[0],
                    (double) sums[0] / size, maxima[0] * perConnection / 1024, sums[1], sums[2], sums[3]);
        }
    }

    /** A verbs counter, or -1 when the job does not run over btl/verbs. */
    private static long counter(String name) throws MPIException {
        return MPI.performanceVariables().stream().filter(v -> v.name().equals(name)).findFirst()
                .map(mpi.PerformanceVariable::value).orElse(-1L);
    }
}
