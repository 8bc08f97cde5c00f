package bench;

import java.nio.ByteBuffer;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;

/**
 * Overlap of communication and computation by the post-work-wait method of the Sandia MPI
 * micro-benchmarks (SMB mpi_overhead), between ranks 0 (sender) and 1 (receiver). For each size:
 * <ol>
 * <li>the transfer alone: rank 1 posts a receive, rank 0 a send, each waits; each side times its
 * own post-to-completion;</li>
 * <li>a work loop alone, calibrated to last as long as the transfer alone (the slower side's);</li>
 * <li>post, work, wait at the receiver (rank 1 posts its receive, works, waits, while rank 0 sends),
 * then at the sender (rank 0 posts its send, works, waits, while rank 1 receives).</li>
 * </ol>
 * Availability, the fraction of the transfer the CPU is free for the work, is
 * {@code 1 - (time(post, work, wait) - work) / transfer alone}, clamped to [0, 1], each side against
 * its own times, each the median over the iterations (a preempted iteration on a busy machine
 * would otherwise weigh on the mean).
 *
 * <p>An untimed pass over every size comes first, for the JIT. Every iteration starts when the
 * receiver has posted its receive (a 0-byte ready message to the sender), so the receiver's times
 * include that message's latency in both the transfer alone and the overlapped run. The table
 * shows the receiver's transfer and work times.
 */
public final class Overlap {
    /** 1 KiB to 4 MiB; 1000 iterations after 100 (100 after 10 above 8 KiB). */
    static final Options.Defaults DEFAULTS = new Options.Defaults(1024, 1 << 22, 1000, 100, 100, 10);

    /** Untimed transfers of the smallest size before anything is measured. */
    private static final int JIT_WARMUP = 50_000;

    private static final int DATA = 1;
    private static final int READY = 2;

    private Overlap() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Options options = Options.parse(args, DEFAULTS);
        Intracomm comm = MPI.COMM_WORLD;
        int rank = comm.getRank();
        if (comm.getSize() != 2) {
            if (rank == 0) {
                System.err.println("This test requires exactly two processes");
            }
            MPI.Finalize();
            return;
        }
        Work work = Work.calibrate();
        if (rank == 0) {
            for (String line : header(options.direct())) {
                System.out.println(line);
            }
        }
        ByteBuffer buffer = options.byteBuffer((int) Math.max(1, options.maxSize()));
        // An untimed pass first, so that the JIT has compiled the transfer paths of every size: the
        // small-message path takes some 10^5 messages to reach its speed.
        long[] sizes = options.sizes(1);
        if (sizes.length > 0) {
            transfer(comm, buffer, (int) sizes[0], 1, JIT_WARMUP, 0, 0, work);
        }
        for (long size : sizes) {
            transfer(comm, buffer, (int) size, 1, 10 * options.warmup(size), 0, 0, work);
        }
        for (long size : sizes) {
            int n = (int) size;
            int iterations = options.iterations(size);
            int warmup = options.warmup(size);
            double transfer = transfer(comm, buffer, n, iterations, warmup, 0, 0, work);
            double[] transfers = new double[2];
            comm.allGather(new double[] {transfer}, 1, MPI.DOUBLE, transfers, 1, MPI.DOUBLE);
            double target = Math.max(transfers[0], transfers[1]);
            long units = work.units(target);
            double worked = work.time(units, iterations, warmup);
            if (worked > 0) {
                units = Math.max(1, Math.round(units * target / worked));
                worked = work.time(units, iterations, warmup);
            }
            double atReceiver = transfer(comm, buffer, n, iterations, warmup, 0, units, work);
            double atSender = transfer(comm, buffer, n, iterations, warmup, units, 0, work);
            // Rank 0 keeps its sender figures and receives rank 1's receiver figures.
            double[] mine = rank == 0 ? new double[] {transfer, worked, atSender}
                    : new double[] {transfer, worked, atReceiver};
            double[] both = new double[6];
            comm.gather(mine, 3, MPI.DOUBLE, both, 3, MPI.DOUBLE, 0);
            if (rank == 0) {
                double sendAvailability = availability(both[2], both[1], both[0]);
                double recvAvailability = availability(both[5], both[4], both[3]);
                System.out.println(Report.row(size, both[3] * 1e6, both[4] * 1e6, recvAvailability * 100,
                        sendAvailability * 100));
            }
        }
        if (rank == 0) {
            System.out.println("# work checksum " + Work.checksum());
        }
        Report.printCounters(comm);
        MPI.Finalize();
    }

    /** The title, the comment lines and the column header. */
    static String[] header(boolean direct) {
        return new String[] {
            Report.title("MPI Overlap Test: post, work, wait (as SMB mpi_overhead)", direct),
            "# Transfer: receive alone, post to completion; Work: work loop alone, calibrated to the transfer",
            "# avail = 1 - (post + work + wait - work) / transfer alone, each side against its own medians",
            Report.header("Transfer(us)", "Work(us)", "Recv avail(%)", "Send avail(%)"),
        };
    }

    /**
     * The fraction of the transfer the CPU was free for work: {@code 1 - (overlapped - work) /
     * transfer}, clamped to [0, 1] (timing noise can push it past either end).
     */
    static double availability(double overlapped, double work, double transfer) {
        if (!(transfer > 0)) {
            return 0;
        }
        double available = 1 - (overlapped - work) / transfer;
        return Math.min(1, Math.max(0, available));
    }

    /**
     * One transfer of {@code n} bytes from rank 0 to rank 1 per iteration, with {@code senderUnits}
     * of work between rank 0's post and wait and {@code receiverUnits} between rank 1's; returns
     * the median over the iterations of this rank's seconds from post to completion.
     */
    private static double transfer(Intracomm comm, ByteBuffer buffer, int n, int iterations, int warmup,
            long senderUnits, long receiverUnits, Work work) throws MPIException {
        byte[] token = new byte[1];
        boolean sender = comm.getRank() == 0;
        comm.barrier();
        double[] times = new double[iterations];
        for (int i = 0; i < warmup + iterations; i++) {
            double start;
            Request request;
            if (sender) {
                comm.recv(token, 0, MPI.BYTE, 1, READY);
                start = MPI.wtime();
                request = comm.iSend(buffer, n, MPI.BYTE, 1, DATA);
                work.run(senderUnits);
            } else {
                start = MPI.wtime();
                request = comm.iRecv(buffer, n, MPI.BYTE, 0, DATA);
                comm.send(token, 0, MPI.BYTE, 0, READY);
                work.run(receiverUnits);
            }
            long waited = Iteration.nanosIfRecorded();
            request.waitFor();
            double stop = MPI.wtime();
            if (i >= warmup) {
                times[i - warmup] = stop - start;
                Iteration.record(n, !sender, sender ? senderUnits > 0 : receiverUnits > 0, start, waited);
            }
        }
        return Stats.median(times);
    }

    /**
     * A timed iteration as a JDK Flight Recorder event, for {@code bench.AsyncTrace} to line up with
     * the runtime's rendezvous events ({@code org.jmca.mca.trace}); recorded only under a recording.
     */
    @jdk.jfr.Name("bench.OverlapIteration")
    @jdk.jfr.Label("Overlap iteration")
    @jdk.jfr.StackTrace(false)
    static final class Iteration extends jdk.jfr.Event {
        @jdk.jfr.Label("Bytes") int bytes;
        @jdk.jfr.Label("Receiver") boolean receiver;
        @jdk.jfr.Label("Worked between post and wait") boolean worked;
        @jdk.jfr.Description("System.nanoTime() at the post") long postNanos;
        @jdk.jfr.Description("System.nanoTime() when the wait began") long waitNanos;
        @jdk.jfr.Description("System.nanoTime() when the wait returned") long doneNanos;

        static long nanosIfRecorded() {
            return new Iteration().isEnabled() ? System.nanoTime() : 0;
        }

        /** {@code postSeconds} is MPI.wtime() at the post, which is System.nanoTime() in seconds. */
        static void record(int bytes, boolean receiver, boolean worked, double postSeconds, long waitNanos) {
            Iteration event = new Iteration();
            if (event.isEnabled()) {
                event.doneNanos = System.nanoTime();
                event.bytes = bytes;
                event.receiver = receiver;
                event.worked = worked;
                event.postNanos = Math.round(postSeconds * 1e9);
                event.waitNanos = waitNanos;
                event.commit();
            }
        }
    }

    /** A work loop the JIT cannot remove: a dependent chain of multiplications, kept in a volatile. */
    static final class Work {
        private static volatile long sink = 1;

        private final double secondsPerUnit;

        private Work(double secondsPerUnit) {
            this.secondsPerUnit = secondsPerUnit;
        }

        /** Measures the loop's speed once it is compiled: the fastest of several long runs. */
        static Work calibrate() throws MPIException {
            for (int i = 0; i < 300; i++) {
                spin(20_000);
            }
            long units = 2_000_000;
            double best = Double.MAX_VALUE;
            for (int round = 0; round < 10; round++) {
                double start = MPI.wtime();
                spin(units);
                best = Math.min(best, MPI.wtime() - start);
            }
            return new Work(best / units);
        }

        /** The units that take about {@code seconds}. */
        long units(double seconds) {
            return Math.max(1, Math.round(seconds / secondsPerUnit));
        }

        void run(long units) {
            if (units > 0) {
                spin(units);
            }
        }

        /** The median seconds of {@code units} of work over {@code iterations} runs after {@code warmup}. */
        double time(long units, int iterations, int warmup) throws MPIException {
            for (int i = 0; i < warmup; i++) {
                run(units);
            }
            double[] times = new double[iterations];
            for (int i = 0; i < iterations; i++) {
                double start = MPI.wtime();
                run(units);
                times[i] = MPI.wtime() - start;
            }
            return Stats.median(times);
        }

        static long checksum() {
            return sink;
        }

        private static void spin(long units) {
            long x = sink;
            for (long i = 0; i < units; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
                x ^= x >>> 29;
            }
            sink = x;
        }
    }
}
