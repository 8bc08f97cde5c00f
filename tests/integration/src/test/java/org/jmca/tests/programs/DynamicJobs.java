package org.jmca.tests.programs;

import static org.jmca.tests.programs.Check.equal;
import static org.jmca.tests.programs.Check.fails;
import static org.jmca.tests.programs.Check.that;

import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Dynamic processes between two jobs. {@code server SERVICE}: opens a port, publishes it under
 * SERVICE and accepts; {@code client SERVICE}: looks the port up and connects. {@code parent
 * CLASSPATH}: spawns 2 processes of this program ({@code child}). Each side then checks the
 * intercommunicator: sizes, messages both ways, a broadcast and an allreduce between the groups,
 * merge, and disconnect.
 */
public final class DynamicJobs {
    public static void main(String[] args) throws MPIException, InterruptedException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        String role = args[0];
        Intercomm other;
        boolean low;
        switch (role) {
            case "server" -> {
                String port = rank == 0 ? Intracomm.openPort() : null;
                if (rank == 0) {
                    Intracomm.publishName(args[1], port);
                    world.setErrhandler(MPI.ERRORS_RETURN);
                    fails(MPI.ERR_SERVICE, () -> Intracomm.publishName(args[1], port), "publishing a name twice");
                    world.setErrhandler(MPI.ERRORS_ARE_FATAL);
                }
                other = world.accept(port, 0);
                if (rank == 0) {
                    Intracomm.unpublishName(args[1], port);
                    Intracomm.closePort(port);
                }
                low = true;
            }
            case "client" -> {
                String port = null;
                world.setErrhandler(MPI.ERRORS_RETURN);
                for (int tries = 0; port == null; tries++) {
                    try {
                        port = Intracomm.lookupName(args[1]);
                    } catch (MPIException e) {
                        equal(e.getErrorClass(), MPI.ERR_NAME, "lookupName before the name is published");
                        that(tries < 600, "the server published no port within 60 s");
                        Thread.sleep(100);
                    }
                }
                world.setErrhandler(MPI.ERRORS_ARE_FATAL);
                other = world.connect(port, 0);
                low = false;
            }
            case "parent" -> {
                int children = args.length > 2 ? Integer.parseInt(args[2]) : 2;
                int[] errors = new int[children];
                other = world.spawn("java", new String[] {"-cp", args[1], DynamicJobs.class.getName(), "child"},
                        children, MPI.INFO_NULL, 0, errors);
                that(java.util.Arrays.stream(errors).allMatch(e -> e == MPI.SUCCESS), "spawn's error codes");
                low = true;
            }
            case "badspawn" -> {
                world.setErrhandler(MPI.ERRORS_RETURN);
                fails(MPI.ERR_SPAWN, () -> world.spawn("python3", new String[] {"x.py"}, 1, MPI.INFO_NULL, 0, null),
                        "spawning something else than java");
                fails(MPI.ERR_SPAWN, () -> world.spawn("java", new String[] {"-cp", args[1], "NoSuchClass"}, 1,
                        MPI.INFO_NULL, 0, null), "a spawned job that dies before it connects");
                System.out.println("PASS dynamic " + role + " rank " + rank);
                MPI.Finalize();
                return;
            }
            case "child" -> {
                other = Intercomm.getParent();
                that(!other.isNull(), "a spawned job has a parent");
                low = false;
            }
            default -> throw new IllegalArgumentException(role);
        }
        if (!role.equals("child")) {
            that(Intercomm.getParent().isNull(), "a job started by jmpirun has no parent");
        }
        exercise(other, rank, world.getSize(), low);
        System.out.println("PASS dynamic " + role + " rank " + rank);
        MPI.Finalize();
    }

    /** The same checks on both sides; {@code low} tells the sides apart. */
    private static void exercise(Intercomm other, int rank, int size, boolean low) throws MPIException {
        int remote = other.getRemoteSize();
        that(other.isInter() && other.getSize() == size && remote >= 1, "sizes " + size + "/" + remote);
        // every rank to every remote rank: its rank and side
        int mark = (low ? 1000 : 2000) + rank;
        for (int r = 0; r < remote; r++) {
            other.iSend(java.nio.IntBuffer.wrap(new int[] {mark}), 1, MPI.INT, r, 7);
        }
        for (int r = 0; r < remote; r++) {
            int[] got = new int[1];
            other.recv(got, 1, MPI.INT, r, 7);
            equal(got[0], (low ? 2000 : 1000) + r, "message from remote rank " + r);
        }
        // a broadcast from the low side's rank 0, then an allreduce between the groups
        int[] data = {low && rank == 0 ? 4242 : 0};
        int root = low ? (rank == 0 ? MPI.ROOT : MPI.PROC_NULL) : 0;
        other.bcast(data, 1, MPI.INT, root);
        if (!low) {
            equal(data[0], 4242, "bcast from the other job");
        }
        int[] sum = new int[1];
        other.allReduce(new int[] {1}, sum, 1, MPI.INT, MPI.SUM);
        equal(sum[0], remote, "allreduce: one per remote process");
        Intracomm merged = other.merge(!low);
        equal(merged.getSize(), size + remote, "merged size");
        equal(merged.getRank(), low ? rank : remote + rank, "merged rank (the low side first)");
        int[] all = {1};
        merged.allReduce(all, 1, MPI.INT, MPI.SUM);
        equal(all[0], size + remote, "allreduce over both jobs");
        Intracomm host = merged.splitType(mpi.Comm.TYPE_SHARED, 0, MPI.INFO_NULL);
        equal(host.getSize(), size + remote, "splitType: both jobs' processes share this host");
        host.free();
        merged.free();
        // both sides pass the same high: the order is the jobs' to agree on, and both must
        Intracomm tied = other.merge(false);
        int[] ranks = {tied.getRank()};
        tied.allReduce(ranks, 1, MPI.INT, MPI.SUM);
        int total = size + remote;
        equal(ranks[0], (long) total * (total - 1) / 2, "merge with the same high on both sides: ranks 0.." + total);
        tied.free();
        other.disconnect();
        that(other.isNull(), "disconnect frees the communicator");
    }
}
