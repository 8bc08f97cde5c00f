package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.nio.IntBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.atomic.AtomicReference;
import mpi.Comm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Request;
import mpi.Status;

/**
 * MPI_THREAD_MULTIPLE under load: {@code ThreadMultiple THREADS MESSAGES SEED}. Every rank runs
 * THREADS sending and THREADS receiving threads at once. Sender t sends MESSAGES messages to every
 * other rank with tag t, on COMM_WORLD for even t and on a duplicate for odd t, each holding
 * (source, tag, sequence), by a random mix of send, ssend and isend+wait. Receiver t takes every
 * message of tag t on its communicator from any source by a random mix of recv, irecv+wait,
 * irecv+test, probe+recv and iprobe+recv, and checks that each (source, tag) arrives exactly once
 * and in order. Prints PASS.
 */
public final class ThreadMultiple {
    private ThreadMultiple() {
    }

    public static void main(String[] args) throws Exception {
        int provided = MPI.InitThread(args, MPI.THREAD_MULTIPLE);
        Check.that(provided == MPI.THREAD_MULTIPLE, "provided thread level " + provided);
        Check.that(MPI.queryThread() == MPI.THREAD_MULTIPLE, "queryThread");
        int threads = Integer.parseInt(args[0]);
        int messages = Integer.parseInt(args[1]);
        long seed = Long.parseLong(args[2]);
        int rank = MPI.COMM_WORLD.getRank();
        int size = MPI.COMM_WORLD.getSize();
        Comm dup = MPI.COMM_WORLD.dup();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        List<Thread> all = new ArrayList<>();
        for (int t = 0; t < threads; t++) {
            int tag = t;
            Comm comm = t % 2 == 0 ? MPI.COMM_WORLD : dup;
            Random random = new Random(seed * 31 + rank * 1009L + t);
            all.add(Thread.ofPlatform().start(guard(failure, () -> send(comm, rank, size, tag, messages, random))));
            all.add(Thread.ofPlatform().start(guard(failure, () -> receive(comm, rank, size, tag, messages,
                    new Random(random.nextLong())))));
        }
        for (Thread thread : all) {
            thread.join();
        }
        if (failure.get() != null) {
            throw new AssertionError("rank " + rank + ": " + failure.get(), failure.get());
        }
        Check.that(MPI.isThreadMain(), "isThreadMain on the thread that called InitThread");
        MPI.COMM_WORLD.barrier();
        dup.free();
        System.out.println("PASS thread multiple: rank " + rank + ", " + threads + " threads, "
                + messages * (size - 1) * threads + " messages received");
        MPI.Finalize();
    }

    private interface Body {
        void run() throws MPIException;
    }

    private static Runnable guard(AtomicReference<Throwable> failure, Body body) {
        return () -> {
            try {
                body.run();
            } catch (Throwable t) {
                failure.compareAndSet(null, t);
            }
        };
    }

    private static void send(Comm comm, int rank, int size, int tag, int messages, Random random) throws MPIException {
        for (int seq = 0; seq < messages; seq++) {
            for (int dest = 0; dest < size; dest++) {
                if (dest == rank) {
                    continue;
                }
                // some messages large enough for a rendezvous
                int[] message = new int[random.nextInt(8) == 0 ? 5000 : 3];
                message[0] = rank;
                message[1] = tag;
                message[2] = seq;
                switch (random.nextInt(3)) {
                    case 0 -> comm.send(message, message.length, MPI.INT, dest, tag);
                    case 1 -> comm.sSend(message, message.length, MPI.INT, dest, tag);
                    default -> {
                        ByteBuffer direct = MPI.newByteBuffer(message.length * 4).order(java.nio.ByteOrder.nativeOrder());
                        direct.asIntBuffer().put(message);
                        Request request = comm.iSend(direct, message.length, MPI.INT, dest, tag);
                        request.waitFor();
                    }
                }
            }
        }
    }

    private static void receive(Comm comm, int rank, int size, int tag, int messages, Random random)
            throws MPIException {
        int[] next = new int[size];
        int[] array = new int[5000];
        IntBuffer direct = MPI.newIntBuffer(5000); // non-blocking receives take direct buffers
        int[] buffer = new int[3];
        for (int received = 0; received < messages * (size - 1); received++) {
            Status status;
            boolean intoDirect = false;
            switch (random.nextInt(5)) {
                case 0 -> status = comm.recv(array, array.length, MPI.INT, MPI.ANY_SOURCE, tag);
                case 1 -> {
                    status = comm.iRecv(direct, 5000, MPI.INT, MPI.ANY_SOURCE, tag).waitStatus();
                    intoDirect = true;
                }
                case 2 -> {
                    Request request = comm.iRecv(direct, 5000, MPI.INT, MPI.ANY_SOURCE, tag);
                    Status done;
                    while ((done = request.testStatus()) == null) {
                        Thread.onSpinWait();
                    }
                    status = done;
                    intoDirect = true;
                }
                case 3 -> {
                    Status probed = comm.probe(MPI.ANY_SOURCE, tag);
                    status = comm.recv(array, array.length, MPI.INT, probed.getSource(), tag);
                }
                default -> {
                    Status probed;
                    while ((probed = comm.iProbe(MPI.ANY_SOURCE, tag)) == null) {
                        Thread.onSpinWait();
                    }
                    status = comm.recv(array, array.length, MPI.INT, probed.getSource(), tag);
                }
            }
            for (int i = 0; i < 3; i++) {
                buffer[i] = intoDirect ? direct.get(i) : array[i];
            }
            int source = status.getSource();
            Check.that(status.getTag() == tag && buffer[0] == source && buffer[1] == tag,
                    "rank " + rank + " tag " + tag + ": a message of (" + buffer[0] + ", " + buffer[1]
                            + ") came as (" + source + ", " + status.getTag() + ")");
            Check.that(buffer[2] == next[source], "rank " + rank + " tag " + tag + ": from rank " + source
                    + " message " + buffer[2] + " arrived where " + next[source] + " was due");
            next[source]++;
        }
    }
}
