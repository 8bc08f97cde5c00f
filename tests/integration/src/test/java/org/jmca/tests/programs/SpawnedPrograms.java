package org.jmca.tests.programs;

import static org.jmca.tests.programs.Check.equal;
import static org.jmca.tests.programs.Check.that;

import java.util.Arrays;
import mpi.Intercomm;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;

/**
 * Spawning Java children the way programs for Open MPI's bindings do: {@code spawn("java",
 * {CLASS, ARGS...})} with no class path, which the children take from the parent. Roles: {@code
 * once} (2 children, then disconnect), {@code multiple} (spawnMultiple of two contexts, 1 and 2
 * ranks, each child checking its MPI.APPNUM, arguments and MPI.INFO_ENV; in {@code once} its
 * working directory too), {@code loop} (3
 * spawns one after another), {@code no-disconnect} (parent and children finalize without
 * disconnecting). The parent's ranks print "PASS spawn ROLE rank R".
 */
public final class SpawnedPrograms {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        Intercomm parent = Intercomm.getParent();
        if (!parent.isNull()) {
            child(parent, args);
            MPI.Finalize();
            return;
        }
        String role = args[0];
        String me = SpawnedPrograms.class.getName();
        switch (role) {
            case "once" -> talk(world.spawn("java", new String[] {me, "child", "once", System.getProperty("user.dir")},
                    2, MPI.INFO_NULL, 0, errorCodes(2)), 2, true);
            case "multiple" -> {
                int[] errors = errorCodes(3);
                Intercomm children = world.spawnMultiple(new String[] {"java", "java"},
                        new String[][] {{me, "child", "first"}, {me, "child", "second"}}, new int[] {1, 2},
                        new mpi.Info[] {MPI.INFO_NULL, MPI.INFO_NULL}, 0, errors);
                that(Arrays.stream(errors).allMatch(e -> e == MPI.SUCCESS), "error codes " + Arrays.toString(errors));
                talk(children, 3, true);
            }
            case "loop" -> {
                for (int round = 0; round < 3; round++) {
                    talk(world.spawn("java", new String[] {me, "child", "loop"}, 1, MPI.INFO_NULL, 0,
                            errorCodes(1)), 1, true);
                }
            }
            case "no-disconnect" -> talk(world.spawn("java", new String[] {me, "child", "no-disconnect"}, 2,
                    MPI.INFO_NULL, 0, errorCodes(2)), 2, false);
            default -> throw new IllegalArgumentException("role " + role);
        }
        System.out.println("PASS spawn " + role + " rank " + rank);
        MPI.Finalize();
    }

    private static int[] errorCodes(int n) {
        int[] codes = new int[n];
        Arrays.fill(codes, -1);
        return codes;
    }

    /** The parent's root sends its children a number; they add their ranks and send the sum back to all. */
    private static void talk(Intercomm children, int size, boolean disconnect) throws MPIException {
        equal(children.getRemoteSize(), size, "children");
        int[] number = {children.getRank() == 0 ? 40 : 0};
        children.bcast(number, 1, MPI.INT, children.getRank() == 0 ? MPI.ROOT : MPI.PROC_NULL);
        int[] sum = new int[1];
        children.allReduce(new int[] {0}, sum, 1, MPI.INT, MPI.SUM);
        equal(sum[0], 40L * size + (long) size * (size - 1) / 2, "what the children sent back");
        if (disconnect) {
            children.disconnect();
        }
    }

    private static void child(Intercomm parent, String[] args) throws MPIException {
        int rank = MPI.COMM_WORLD.getRank();
        String role = args[1];
        if (role.equals("first") || role.equals("second")) {
            int appnum = (Integer) MPI.COMM_WORLD.getAttr(MPI.APPNUM);
            equal(appnum, rank == 0 ? 0 : 1, "MPI.APPNUM of child " + rank);
            that(role.equals(rank == 0 ? "first" : "second"), "child " + rank + " got its context's arguments: "
                    + role);
            that(MPI.INFO_ENV.get("ompi_num_apps").equals("2") && MPI.INFO_ENV.get("ompi_np").equals("1 2")
                    && MPI.INFO_ENV.get("ompi_first_rank").equals("0 1"), "INFO_ENV's contexts");
        }
        if (role.equals("once")) {
            that(System.getProperty("user.dir").equals(args[2]), "a child works in its parent's directory " + args[2]
                    + ", not " + System.getProperty("user.dir"));
        }
        int[] number = new int[1];
        parent.bcast(number, 1, MPI.INT, 0);
        equal(number[0], 40, "the parent's number");
        int[] ignored = new int[1];
        parent.allReduce(new int[] {number[0] + rank}, ignored, 1, MPI.INT, MPI.SUM);
        if (!role.equals("no-disconnect")) {
            parent.disconnect();
        }
    }
}
