package org.jmca.tests.programs;

import java.nio.IntBuffer;
import mpi.MPI;
import mpi.MPIException;
import mpi.Prequest;
import mpi.Request;
import mpi.Status;

/**
 * Non-blocking requests between pairs of ranks (0 and 1, 2 and 3...; a last rank without a
 * partner only finalizes): waitAll over a mix of sends and receives, waitAny until every request
 * is null, testAll/testAny polling, persistent requests started repeatedly.
 */
public final class Nonblocking {
    private Nonblocking() {
    }

    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        int rank = MPI.COMM_WORLD.getRank();
        int peer = rank ^ 1;
        if (peer >= MPI.COMM_WORLD.getSize()) {
            MPI.Finalize();
            return;
        }
        int n = 20;

        // waitAll: n receives and n sends, both ways at once; sizes cross the rendezvous threshold.
        IntBuffer[] in = new IntBuffer[n];
        Request[] requests = new Request[2 * n];
        for (int i = 0; i < n; i++) {
            int count = 1 + i * 2000;
            in[i] = MPI.newIntBuffer(count);
            requests[i] = MPI.COMM_WORLD.iRecv(in[i], count, MPI.INT, peer, i);
            IntBuffer out = MPI.newIntBuffer(count);
            for (int k = 0; k < count; k++) {
                out.put(k, rank * 1_000_000 + i * 1000 + k);
            }
            requests[n + i] = MPI.COMM_WORLD.iSend(out, count, MPI.INT, peer, i);
        }
        Status[] statuses = Request.waitAllStatus(requests);
        for (int i = 0; i < n; i++) {
            Check.equal(statuses[i].getCount(MPI.INT), 1 + i * 2000, "count of receive " + i);
            Check.equal(in[i].get(i * 1000 % (1 + i * 2000)), peer * 1_000_000 + i * 1000 + (i * 1000 % (1 + i * 2000)),
                    "content of receive " + i);
            Check.that(requests[i].isNull(), "a collected request is null");
        }

        // waitAny until all are done: each index comes back exactly once.
        Request[] any = new Request[n];
        IntBuffer one = MPI.newIntBuffer(n);
        for (int i = 0; i < n; i++) {
            any[i] = MPI.COMM_WORLD.iRecv(MPI.slice(one, i), 1, MPI.INT, peer, 100 + i);
        }
        for (int i = n - 1; i >= 0; i--) {
            MPI.COMM_WORLD.send(new int[] {i}, 1, MPI.INT, peer, 100 + i);
        }
        boolean[] seen = new boolean[n];
        for (int k = 0; k < n; k++) {
            Status s = Request.waitAnyStatus(any);
            Check.that(!seen[s.getIndex()], "waitAny returned index " + s.getIndex() + " twice");
            seen[s.getIndex()] = true;
            Check.equal(s.getTag(), 100 + s.getIndex(), "tag of waitAny's request");
        }
        Check.equal(Request.waitAny(any), MPI.UNDEFINED, "waitAny over null requests");

        // testAll / testAny polling.
        IntBuffer polled = MPI.newIntBuffer(1);
        Request[] pair = {MPI.COMM_WORLD.iRecv(polled, 1, MPI.INT, peer, 300)};
        MPI.COMM_WORLD.send(new int[] {42}, 1, MPI.INT, peer, 300);
        while (!Request.testAll(pair)) {
            Thread.onSpinWait();
        }
        Check.equal(polled.get(0), 42, "testAll's message");

        // Persistent requests: one send and one receive started five times.
        IntBuffer pin = MPI.newIntBuffer(1);
        IntBuffer pout = MPI.newIntBuffer(1);
        Prequest receive = MPI.COMM_WORLD.recvInit(pin, 1, MPI.INT, peer, 400);
        Prequest send = MPI.COMM_WORLD.sendInit(pout, 1, MPI.INT, peer, 400);
        for (int round = 0; round < 5; round++) {
            pout.put(0, rank * 10 + round);
            receive.start();
            send.start();
            Request.waitAll(new Request[] {receive, send});
            Check.equal(pin.get(0), peer * 10 + round, "persistent round " + round);
        }
        if (rank == 0) {
            System.out.println("PASS non-blocking requests");
        }
        MPI.Finalize();
    }
}
