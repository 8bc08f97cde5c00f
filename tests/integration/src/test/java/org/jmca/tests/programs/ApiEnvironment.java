package org.jmca.tests.programs;

import java.nio.CharBuffer;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Comm;
import mpi.Count;
import mpi.Group;
import mpi.Info;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Message;
import mpi.Request;
import mpi.Status;

/**
 * The environment part of Open MPI's Java API on 3 or more ranks: version and library, the
 * predefined attributes and the program's own (keyvals, copied by dup), names, infos (INFO_NULL,
 * INFO_ENV, every method), groups made by set operations and ranges and a communicator made from
 * one (create), splitType by host, a null communicator from split, REQUEST_NULL, a loop on
 * getStatus that ends, status setters, callErrhandler under ERRORS_RETURN, and the error classes
 * of bad arguments. Prints "PASS api environment" per rank.
 */
public final class ApiEnvironment {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        world.setErrhandler(MPI.ERRORS_RETURN);
        int rank = world.getRank();
        int size = world.getSize();

        Check.equal(MPI.getVersion().getVersion(), MPI.VERSION, "MPI.getVersion");
        Check.equal(MPI.getVersion().getSubVersion(), 1, "MPI.getVersion subversion");
        Check.that(MPI.getLibVersion().startsWith("JMCA"), "getLibVersion: " + MPI.getLibVersion());
        Check.that(MPI.isThreadMain(), "the thread that called Init is the main thread");
        MPI.pControl(1, null);

        Check.equal((Integer) world.getAttr(MPI.TAG_UB), (1 << 30) - 1, "TAG_UB");
        Check.equal((Integer) world.getAttr(MPI.UNIVERSE_SIZE), size, "UNIVERSE_SIZE");
        Check.equal((Integer) world.getAttr(MPI.HOST), MPI.PROC_NULL, "HOST");
        Check.equal((Integer) world.getAttr(MPI.IO), MPI.ANY_SOURCE, "IO");
        Check.equal((Integer) world.getAttr(MPI.WTIME_IS_GLOBAL), 0, "WTIME_IS_GLOBAL");
        Check.equal((Integer) world.getAttr(MPI.APPNUM), 0, "APPNUM");
        Check.equal((Integer) world.getAttr(MPI.LASTUSEDCODE), MPI.ERR_LASTCODE, "LASTUSEDCODE");
        int keyval = Comm.createKeyval();
        Check.that(world.getAttr(keyval) == null, "an attribute not set is null");
        world.setAttr(keyval, "rank " + rank);
        Intracomm dup = world.dup();
        Check.that(("rank " + rank).equals(dup.getAttr(keyval)), "dup carries the attribute");
        dup.deleteAttr(keyval);
        Check.that(dup.getAttr(keyval) == null && world.getAttr(keyval) != null, "deleteAttr on the dup only");
        Check.fails(MPI.ERR_KEYVAL, () -> world.setAttr(MPI.TAG_UB, 1), "setAttr of a predefined keyval");
        Comm.freeKeyval(keyval);
        Check.fails(MPI.ERR_KEYVAL, () -> world.setAttr(keyval, 1), "setAttr with a freed keyval");

        Check.that(world.getName().equals("MPI_COMM_WORLD"), "COMM_WORLD's name: " + world.getName());
        Check.that(dup.getName().isEmpty(), "a dup has no name: '" + dup.getName() + "'");
        dup.setName("mine");
        Check.that(dup.getName().equals("mine"), "setName");
        Check.that(!dup.isInter() && dup.getTopology() == MPI.UNDEFINED, "an intracommunicator without topology");
        Comm copy = dup.clone();
        Check.equal(Comm.compare(copy, dup), MPI.CONGRUENT, "clone is a dup");
        copy.free();

        Info info = new Info();
        info.set("b", "2");
        info.set("a", "1");
        Check.that(info.size() == 2 && info.getKey(0).equals("b") && info.getKey(1).equals("a"), "info keys in order");
        Info twin = info.dup();
        info.delete("b");
        Check.that(info.size() == 1 && "2".equals(twin.get("b")) && info.get("b") == null, "dup is a copy");
        Check.fails(MPI.ERR_INFO_NOKEY, () -> info.delete("b"), "delete of a key not set");
        info.free();
        Check.that(info.isNull() && MPI.INFO_NULL.isNull() && !MPI.INFO_ENV.isNull(), "freed info and INFO_NULL");
        Check.equal(Integer.parseInt(MPI.INFO_ENV.get("maxprocs")), size, "INFO_ENV maxprocs");
        Check.that(MPI.INFO_ENV.get("host").equals(MPI.getProcessorName()), "INFO_ENV host");
        Intracomm hinted = world.dupWithInfo(MPI.INFO_NULL);
        hinted.free();

        Group all = world.getGroup();
        Group evens = all.rangeIncl(new int[][] {{0, size - 1, 2}});
        Group odds = all.rangeExcl(new int[][] {{0, size - 1, 2}});
        Check.equal(evens.getSize(), (size + 1) / 2, "rangeIncl");
        Check.equal(Group.union(odds, evens).getSize(), size, "union");
        Check.equal(Group.intersection(odds, evens).getSize(), 0, "intersection");
        Check.equal(Group.compare(Group.difference(all, odds), evens), MPI.IDENT, "difference keeps the order");
        Check.equal(Group.compare(Group.union(evens, odds), all), MPI.SIMILAR, "union: same processes, other order");
        Check.equal(evens.getRank(), rank % 2 == 0 ? rank / 2 : MPI.UNDEFINED, "rank in the evens");
        Group backwards = all.rangeIncl(new int[][] {{size - 1, 0, -1}});
        Check.equal(backwards.getRank(), size - 1 - rank, "a range with a negative stride");
        Check.equal(MPI.GROUP_EMPTY.getSize(), 0, "GROUP_EMPTY");
        Intracomm evenComm = world.create(evens);
        Check.that(rank % 2 == 0 ? !evenComm.isNull() && evenComm.getRank() == rank / 2 : evenComm.isNull(),
                "create from the evens");
        if (!evenComm.isNull()) {
            evenComm.free();
        }
        if (rank % 2 == 1) { // only the group's members call createGroup
            Intracomm oddComm = world.createGroup(odds, 3);
            Check.equal(oddComm.getRank(), rank / 2, "createGroup by the odd ranks alone");
            int[] count = {1};
            oddComm.allReduce(count, 1, MPI.INT, MPI.SUM);
            Check.equal(count[0], size / 2, "allreduce over the group createGroup made");
            oddComm.free();
        }
        nonBlockingDup(world, rank, size);
        Intracomm reversed = world.createGroup(backwards, 7);
        Check.equal(reversed.getRank(), size - 1 - rank, "createGroup keeps the group's order");
        reversed.free();
        evens.free();
        Check.fails(MPI.ERR_GROUP, evens::getSize, "a freed group");

        Intracomm host = world.splitType(Comm.TYPE_SHARED, rank, MPI.INFO_NULL);
        int[] onHost = {host.getSize()};
        Check.that(onHost[0] >= 1 && onHost[0] <= size, "splitType gives the ranks of this host");
        host.free();
        Intracomm none = world.split(MPI.UNDEFINED, 0);
        Check.that(none.isNull(), "split with MPI.UNDEFINED gives a null communicator");
        Check.fails(MPI.ERR_COMM, none::getSize, "a null communicator");

        Check.that(MPI.REQUEST_NULL.isNull(), "REQUEST_NULL is null");
        Request.waitAll(new Request[] {MPI.REQUEST_NULL, MPI.REQUEST_NULL});
        int partner = rank ^ 1;
        if (partner < size) {
            Request receive = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, partner, 5);
            world.send(new int[] {rank}, 1, MPI.INT, partner, 5);
            Status seen;
            while ((seen = receive.getStatus()) == null) {
                Thread.onSpinWait();
            }
            Check.equal(seen.getSource(), partner, "getStatus' source");
            receive.waitFor();

            // Open MPI's buffer rules: any array or buffer holds any type, as raw memory
            int[] ints = {rank * 1000 + 1, rank * 1000 + 2};
            int[] intsBack = new int[2];
            world.sendRecv(ints, 4, MPI.CHAR, partner, 6, intsBack, 4, MPI.CHAR, partner, 6);
            Check.that(Arrays.equals(intsBack, new int[] {partner * 1000 + 1, partner * 1000 + 2}), "int[] as MPI.CHAR");
            CharBuffer chars = CharBuffer.wrap(("r" + rank + "!!").toCharArray());
            CharBuffer charsBack = CharBuffer.allocate(4);
            world.sendRecv(chars, 8, MPI.BYTE, partner, 7, charsBack, 8, MPI.BYTE, partner, 7);
            Check.that(new String(charsBack.array()).equals("r" + partner + "!!"), "CharBuffer as MPI.BYTE");
            // a small buffered send goes without an attached buffer, as in Open MPI
            world.ibSend(MPI.newIntBuffer(1).put(0, rank), 1, MPI.INT, partner, 8).waitFor();
            int[] fromBuffered = new int[1];
            world.recv(fromBuffered, 1, MPI.INT, partner, 8);
            Check.equal(fromBuffered[0], partner, "ibSend without an attached buffer");
            matchedProbes(world, rank, partner);
        }

        Status status = world.iRecv(MPI.newIntBuffer(1), 1, MPI.INT, MPI.PROC_NULL, 0).waitStatus();
        status.setElements(MPI.INT, 7);
        Check.equal(status.getElementsX(MPI.INT).getCount(), 7, "setElements");
        status.setElementsX(MPI.INT, new Count(9));
        Check.equal(status.getCount(MPI.INT), 9, "setElementsX");
        status.setCancelled(true);
        Check.that(status.isCancelled(), "setCancelled");
        Check.that(new Count(3).compareTo(new Count(4)) < 0 && new Count(5).equals(new Count(5)), "Count");

        world.callErrhandler(MPI.ERR_OTHER);
        dup.free();
        world.barrier();
        System.out.println("PASS api environment rank " + rank);
        MPI.Finalize();
    }

    /** Matched probes: a taken message is invisible to other probes and receives, eager and rendezvous sizes. */
    /**
     * iDup does not block: rank 0 starts it and then sends to rank 1, which receives before it
     * starts its own (a blocking dup here would deadlock); a blocking dup made while an iDup is
     * pending gets a context of its own.
     */
    private static void nonBlockingDup(Intracomm world, int rank, int size) throws MPIException {
        Check.that(world.getRequest().isNull(), "a communicator not made by iDup has a null request");
        int[] token = {41};
        Intracomm copy;
        if (rank == 0) {
            copy = world.iDup();
            world.send(token, 1, MPI.INT, 1, 30);
        } else {
            if (rank == 1) {
                world.recv(token, 1, MPI.INT, 0, 30);
            }
            copy = world.iDup();
        }
        copy.setErrhandler(MPI.ERRORS_RETURN);
        Intracomm blocking = world.dup();
        copy.getRequest().waitFor();
        Check.equal(token[0], 41, "the message sent while iDup was pending");
        int[] sum = {rank};
        copy.allReduce(sum, 1, MPI.INT, MPI.SUM);
        Check.equal(sum[0], (long) size * (size - 1) / 2, "allreduce on the communicator iDup made");
        // the two duplicates' messages do not mix: the same tag and source on each
        if (rank == 0) {
            blocking.send(new int[] {1}, 1, MPI.INT, 1, 31);
            copy.send(new int[] {2}, 1, MPI.INT, 1, 31);
        } else if (rank == 1) {
            int[] got = new int[1];
            copy.recv(got, 1, MPI.INT, MPI.ANY_SOURCE, MPI.ANY_TAG);
            Check.equal(got[0], 2, "the iDup communicator's message, not the dup's");
            blocking.recv(got, 1, MPI.INT, 0, 31);
            Check.equal(got[0], 1, "the dup's message");
        }
        // valid MPI: rank 0 makes a blocking dup while the others wait for their iDup first
        Intracomm early = world.iDup();
        Intracomm blockingMeanwhile;
        if (rank == 0) {
            blockingMeanwhile = world.dup();
            early.getRequest().waitFor();
        } else {
            early.getRequest().waitFor();
            blockingMeanwhile = world.dup();
        }
        int[] one = {1};
        early.allReduce(one, 1, MPI.INT, MPI.SUM);
        blockingMeanwhile.allReduce(one, 1, MPI.INT, MPI.SUM);
        Check.equal(one[0], (long) size * size, "both duplicates work, with contexts of their own");
        early.free();
        blockingMeanwhile.free();
        Intracomm unfinished = world.iDup();
        unfinished.setErrhandler(MPI.ERRORS_RETURN);
        if (rank == 0) {
            Check.fails(MPI.ERR_COMM, unfinished::getSize, "using an iDup's communicator before its request completes");
        }
        unfinished.getRequest().waitFor();
        Check.equal(unfinished.getSize(), size, "size once made");
        unfinished.free();
        blocking.free();
        copy.free();
    }

    private static void matchedProbes(Intracomm world, int rank, int partner) throws MPIException {
        int big = 1 << 20;
        world.send(new int[] {rank, 1}, 2, MPI.INT, partner, 20);
        world.send(new int[] {rank, 2, 2}, 3, MPI.INT, partner, 21);
        Request bigSend = world.iSend(MPI.newByteBuffer(big), big, MPI.BYTE, partner, 22);
        Message first = new Message();
        Check.that(first.isNull(), "a new Message is null");
        Status status = first.mProbe(partner, MPI.ANY_TAG, world);
        Check.that(!first.isNull() && status.getTag() == 20 && status.getCount(MPI.INT) == 2, "mProbe: " + status);
        Status next = world.probe(partner, MPI.ANY_TAG);
        Check.equal(next.getTag(), 21, "a probe does not see the taken message");
        Message second = new Message();
        Status secondStatus;
        while ((secondStatus = second.imProbe(partner, 21, world)) == null) {
            Thread.onSpinWait();
        }
        Check.equal(secondStatus.getCount(MPI.INT), 3, "imProbe's count");
        Message third = new Message();
        Check.equal(third.mProbe(partner, 22, world).getCount(MPI.BYTE), big, "mProbe of a rendezvous message");
        Check.that(new Message().imProbe(partner, 23, world) == null, "imProbe with no message");
        int[] secondData = new int[3];
        Request pending = second.imRecv(IntBuffer.wrap(secondData), 3, MPI.INT);
        int[] firstData = new int[2];
        first.mRecv(firstData, 2, MPI.INT);
        Check.that(Arrays.equals(firstData, new int[] {partner, 1}) && first.isNull(), "mRecv");
        pending.waitFor();
        Check.that(Arrays.equals(secondData, new int[] {partner, 2, 2}), "imRecv");
        Check.equal(third.mRecv(new byte[big], big, MPI.BYTE).getCount(MPI.BYTE), big, "mRecv of a rendezvous message");
        bigSend.waitFor();
        Message none = new Message();
        Check.equal(none.mProbe(MPI.PROC_NULL, 0, world).getSource(), MPI.PROC_NULL, "mProbe of MPI.PROC_NULL");
        Check.that(none.isNoProc(), "a no-process message");
        Check.equal(none.mRecv(new int[1], 1, MPI.INT).getSource(), MPI.PROC_NULL, "mRecv of the no-process message");
        Check.fails(MPI.ERR_REQUEST, () -> new Message().mRecv(new int[1], 1, MPI.INT), "mRecv of a null Message");
    }
}
