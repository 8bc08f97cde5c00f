package org.jmca.tests.programs;

import java.nio.file.Files;
import java.nio.file.Path;
import mpi.MPI;
import sun.misc.Signal;

/**
 * Programs that fail on purpose. {@code throw R}: rank R throws after Init (and a barrier) while
 * the others wait in a receive. {@code wait FILE}: every rank prints its pid and waits in a receive until
 * FILE exists (so a test can kill one or talk to its sockets), then all finalize.
 * {@code stream}: every rank prints its pid and then sends 1 MiB messages round the ring forever.
 * {@code abort R}: rank R calls abort(3). {@code nofinalize}: rank 1 returns without Finalize (after a barrier).
 * {@code signals FILE}: as {@code wait}, and every rank prints a line for each SIGUSR1 and SIGUSR2 it gets.
 * {@code collectives [N]}: every rank prints its pid and then allreduces 8 bytes and barriers forever
 * (or N times, then finalizes).
 * {@code init}: every rank prints its pid before MPI.Init; rank 1 then sleeps there for ever, the others
 * wait for it in Init. {@code finalize}: every rank prints its pid after Init; rank 1 then sleeps for
 * ever, the others wait for it in Finalize. {@code spawn CLASSPATH}: the ranks spawn 2 processes of
 * {@code spawned}, print their pids, and wait for a message from the children for ever; each child
 * prints "child R pid P" and waits for a message from the parents for ever.
 */
public final class Failing {
    private Failing() {
    }

    public static void main(String[] args) throws Exception {
        if (args[0].equals("init")) {
            int rank = Integer.parseInt(System.getenv("JMCA_RANK"));
            System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
            if (rank == 1) {
                Thread.sleep(Long.MAX_VALUE);
            }
            MPI.Init(args);
            MPI.Finalize();
            return;
        }
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        if (args[0].equals("throw") || args[0].equals("nofinalize")) {
            // every rank past Init first: a rank that ends at once would otherwise take its
            // shared-memory file with it before a slower peer mapped it, and that peer's failure
            // could be the one the launcher reports
            MPI.COMM_WORLD.barrier();
        }
        switch (args[0]) {
            case "throw" -> {
                if (rank == Integer.parseInt(args[1])) {
                    throw new IllegalStateException("rank " + rank + " fails on purpose");
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            case "abort" -> {
                if (rank == Integer.parseInt(args[1])) {
                    MPI.COMM_WORLD.abort(3);
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            case "nofinalize" -> {
                if (rank == 1) {
                    return;
                }
                MPI.COMM_WORLD.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            case "wait", "signals" -> {
                if (args[0].equals("signals")) {
                    for (String name : new String[] {"USR1", "USR2"}) {
                        Signal.handle(new Signal(name),
                                signal -> System.out.println("rank " + rank + " got SIG" + name));
                    }
                }
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                Path file = Path.of(args[1]);
                while (!Files.exists(file)) {
                    MPI.COMM_WORLD.iProbe(MPI.ANY_SOURCE, 0);
                    Thread.sleep(20);
                }
                MPI.COMM_WORLD.barrier();
                MPI.Finalize();
            }
            case "stream" -> {
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                int size = MPI.COMM_WORLD.getSize();
                java.nio.ByteBuffer out = MPI.newByteBuffer(1 << 20);
                java.nio.ByteBuffer in = MPI.newByteBuffer(1 << 20);
                while (true) {
                    mpi.Request receive = MPI.COMM_WORLD.iRecv(in, 1 << 20, MPI.BYTE, (rank + size - 1) % size, 0);
                    MPI.COMM_WORLD.send(out, 1 << 20, MPI.BYTE, (rank + 1) % size, 0);
                    receive.waitFor();
                }
            }
            case "collectives" -> {
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                long[] value = new long[1];
                long rounds = args.length > 1 ? Long.parseLong(args[1]) : Long.MAX_VALUE;
                int size = MPI.COMM_WORLD.getSize();
                for (long round = 0; round < rounds; round++) {
                    value[0] = rank;
                    MPI.COMM_WORLD.allReduce(value, 1, MPI.LONG, MPI.SUM);
                    if (value[0] != (long) size * (size - 1) / 2) {
                        throw new IllegalStateException("round " + round + ": the sum is " + value[0]);
                    }
                    MPI.COMM_WORLD.barrier();
                }
                MPI.Finalize();
            }
            case "spawn" -> {
                mpi.Intercomm children = MPI.COMM_WORLD.spawn("java", new String[] {"-cp", args[1],
                        Failing.class.getName(), "spawned"}, 2, MPI.INFO_NULL, 0, null);
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                children.recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            case "spawned" -> {
                System.out.println("child " + rank + " pid " + ProcessHandle.current().pid());
                mpi.Intercomm.getParent().recv(new int[1], 1, MPI.INT, MPI.ANY_SOURCE, 0);
            }
            case "finalize" -> {
                System.out.println("rank " + rank + " pid " + ProcessHandle.current().pid());
                if (rank == 1) {
                    Thread.sleep(Long.MAX_VALUE);
                }
                MPI.Finalize();
            }
            default -> throw new IllegalArgumentException(args[0]);
        }
    }
}
