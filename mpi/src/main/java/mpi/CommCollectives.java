package mpi;

import static org.jmca.mca.coll.CollFunction.*;

import java.io.UncheckedIOException;
import java.nio.Buffer;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.rte.WireUpException;
import org.jmca.runtime.Collectives;
import org.jmca.runtime.Communicator;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.PointToPointCollectives.Blocks;
import org.jmca.runtime.PointToPointCollectives;
import org.jmca.runtime.Type;

/**
 * The collectives of {@link Comm}, in a file of their own as Open MPI keeps its collective
 * entry points apart from the communicator: every collective the coll framework serves, and
 * alltoallw and the neighbourhood collectives, which go as point-to-point messages. A program
 * sees them as Comm's methods (this class is the package's own, as java.lang's
 * AbstractStringBuilder is StringBuilder's); the communicator's state and error handling stay in
 * Comm, reached through the four methods below.
 *
 * <p>On an intercommunicator the same calls go between the two groups (coll/inter serves them).
 */
abstract sealed class CommCollectives permits Comm {

    /** The runtime's side of the communicator, once checked usable. */
    abstract Communicator core() throws MPIException;

    /** Runs an operation inside the library; failures of any kind go through the error handler. */
    abstract <T> T call(String operation, Comm.Operation<T> body) throws MPIException;

    /** A failure of any kind as the MPIException the error handler lets through (or it aborts). */
    abstract MPIException failure(String operation, Exception e);

    /** A started point-to-point operation as the program's request. */
    abstract Request started(Communicator.Started started);

    private Comm self() {
        return (Comm) this;
    }

    // ---- alltoallw ----------------------------------------------------------------------------------

    /**
     * Every rank sends block j to rank j and receives block i from rank i, each block with its own
     * count, datatype and displacement in bytes. Collective.
     */
    public void allToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf,
                          int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        allToAllw("MPI_Alltoallw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls, recvTypes)
                .waitFor();
    }

    public Request iAllToAllw(Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes, Buffer recvBuf,
                              int[] recvCount, int[] rDispls, Datatype[] recvTypes) throws MPIException {
        return allToAllw("MPI_Ialltoallw", sendBuf, sendCount, sDispls, sendTypes, recvBuf, recvCount, rDispls,
                recvTypes);
    }

    /** alltoallw as one message to and from every rank on the collective context, under one tag. */
    private Request allToAllw(String operation, Buffer sendBuf, int[] sendCount, int[] sDispls, Datatype[] sendTypes,
                              Buffer recvBuf, int[] recvCount, int[] rDispls, Datatype[] recvTypes)
            throws MPIException {
        return call(operation, rt -> started(PointToPointCollectives.allToAllw(core(), sendBuf, sendCount, sDispls,
                Datatype.use(sendTypes), recvBuf, recvCount, rDispls, Datatype.use(recvTypes))));
    }

    // ---- neighbourhood collectives ----------------------------------------------------------------

    /** The ranks this one receives from in neighbourhood collectives, in order (MPI.PROC_NULL: none there). */
    int[] inNeighbours() throws MPIException {
        throw new MPIException(MPI.ERR_TOPOLOGY, this + " has no process topology: neighbourhood collectives need a"
                + " communicator from createCart, createGraph or createDistGraph");
    }

    /** The ranks this one sends to in neighbourhood collectives, in order. */
    int[] outNeighbours() throws MPIException {
        return inNeighbours();
    }

    /** Every neighbour gets {@code sendbuf}; block i of {@code recvbuf} comes from in-neighbour i. */
    public void neighborAllGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                  Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_allgather", Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype))).waitFor();
    }

    public Request iNeighborAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                      int recvcount, Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_allgather", Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    /** As neighborAllGather, the block from in-neighbour i with {@code recvcount[i]} elements at {@code displs[i]}. */
    public void neighborAllGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                                   int[] displs, Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_allgatherv", Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, displs, Datatype.use(recvtype))).waitFor();
    }

    public Request iNeighborAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf,
                                       int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_allgatherv", Blocks.whole(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    /** Block j of {@code sendbuf} goes to out-neighbour j; block i of {@code recvbuf} comes from in-neighbour i. */
    public void neighborAllToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                                 Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_alltoall", Blocks.even(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype))).waitFor();
    }

    public Request iNeighborAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                                     Datatype recvtype) throws MPIException {
        return neighbours("MPI_Ineighbor_alltoall", Blocks.even(sendbuf, sendcount, Datatype.use(sendtype)),
                Blocks.even(recvbuf, recvcount, Datatype.use(recvtype)));
    }

    public void neighborAllToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                                  int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        neighbours("MPI_Neighbor_alltoallv", Blocks.varying(sendbuf, sendcount, sdispls, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, rdispls, Datatype.use(recvtype))).waitFor();
    }

    public Request iNeighborAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype,
                                      Buffer recvbuf, int[] recvcount, int[] rdispls, Datatype recvtype)
            throws MPIException {
        return neighbours("MPI_Ineighbor_alltoallv",
                Blocks.varying(sendbuf, sendcount, sdispls, Datatype.use(sendtype)),
                Blocks.varying(recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    /** One neighbourhood collective: an exchange with the topology's neighbours. */
    private Request neighbours(String operation, Blocks send, Blocks receive) throws MPIException {
        return call(operation, rt -> started(PointToPointCollectives.exchange(core(), send, outNeighbours(), receive,
                inNeighbours())));
    }

    // ---- collectives ------------------------------------------------------------------------
    // Each builds its call with the runtime's Collectives and runs it on the module that serves
    // the function on this communicator. A null send buffer is MPI_IN_PLACE.

    /** The runtime's helper of one collective call. */
    final Collectives collectives(String operation) throws MPIException {
        return new Collectives(core(), operation);
    }

    /** Builds one call's CollCall from its MPI arguments. */
    interface CallBuilder {
        CollCall build(Collectives c) throws MPIException;
    }

    /** A blocking collective: builds the call and runs it to completion. */
    final void runCollective(String operation, CollFunction function, CallBuilder builder) throws MPIException {
        call(operation, rt -> {
            Collectives c = new Collectives(core(), operation);
            c.run(function, builder.build(c));
            return null;
        });
    }

    /** A non-blocking collective: builds the call and starts it. */
    final Request startCollective(String operation, CollFunction function, CallBuilder builder) throws MPIException {
        return call(operation, rt -> {
            Collectives c = new Collectives(core(), operation);
            Collectives.Started started = c.start(function, builder.build(c));
            return new Request(self(), started.request(), started.afterCompletion());
        });
    }

    /**
     * Enters the library for a blocking collective. The hottest collectives (barrier, bcast,
     * reduce, allreduce) are written out with it rather than through {@link #runCollective}'s
     * lambda: the JIT then compiles each alone, small and monomorphic. Through one shared method,
     * whose profile every collective pollutes, its C2 compile took the longest of a whole
     * application loop (0.56 s, JFR) and was undone whenever the application moved on to
     * another collective.
     */
    private Collectives enterCollective(String operation) throws MPIException {
        try {
            Collectives c = collectives(operation);
            c.enter();
            return c;
        } catch (MPIException | McaException | MpiError e) {
            throw failure(operation, e);
        }
    }

    /** Returns once every rank of the communicator has called it. */
    public void barrier() throws MPIException {
        Collectives c = enterCollective("MPI_Barrier");
        try {
            c.run(BARRIER, c.barrier());
        } catch (McaException | WireUpException | UncheckedIOException | MpiError e) {
            throw failure("MPI_Barrier", e);
        } finally {
            c.exit();
        }
    }

    public Request iBarrier() throws MPIException {
        return startCollective("MPI_Ibarrier", BARRIER, Collectives::barrier);
    }

    public void bcast(Object buf, int count, Datatype type, int root) throws MPIException {
        Collectives c = enterCollective("MPI_Bcast");
        try {
            c.run(BCAST, c.bcast(buf, count, Datatype.use(type), root));
        } catch (McaException | WireUpException | UncheckedIOException | MpiError e) {
            throw failure("MPI_Bcast", e);
        } finally {
            c.exit();
        }
    }

    public Request iBcast(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Ibcast", BCAST, c -> c.bcast(buf, count, Datatype.use(type), root));
    }

    public void gather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                       Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Gather", GATHER, c -> c.gather(sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
                recvcount, Datatype.use(recvtype), root));
    }

    /** In place at the root: its block is already in {@code buf}. */
    public void gather(Object buf, int count, Datatype type, int root) throws MPIException {
        runCollective("MPI_Gather", GATHER, c -> c.inPlaceGather(buf, count, Datatype.use(type), root));
    }

    public Request iGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                           Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Igather", GATHER, c -> c.gather(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, Datatype.use(recvtype), root));
    }

    public Request iGather(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Igather", GATHER, c -> c.inPlaceGather(buf, count, Datatype.use(type), root));
    }

    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                        int[] displs, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c -> c.gatherv(sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
                recvcount, displs, Datatype.use(recvtype), root));
    }

    /** In place at the root. */
    public void gatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c -> c.gatherv(null, 0, Datatype.use(recvtype), recvbuf, recvcount,
                displs, Datatype.use(recvtype), root));
    }

    /** At a rank other than the root, which receives nothing. */
    public void gatherv(Object sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        runCollective("MPI_Gatherv", GATHERV, c -> c.gatherv(sendbuf, sendcount, Datatype.use(sendtype), null, null,
                null, Datatype.use(sendtype), root));
    }

    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                            int[] displs, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c -> c.gatherv(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, displs, Datatype.use(recvtype), root));
    }

    /** In place at the root. */
    public Request iGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype, int root)
            throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c -> c.gatherv(null, 0, Datatype.use(recvtype), recvbuf,
                recvcount, displs, Datatype.use(recvtype), root));
    }

    /** At a rank other than the root, which receives nothing. */
    public Request iGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, int root) throws MPIException {
        return startCollective("MPI_Igatherv", GATHERV, c -> c.gatherv(sendbuf, sendcount, Datatype.use(sendtype),
                null, null, null, Datatype.use(sendtype), root));
    }

    public void scatter(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                        Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatter", SCATTER, c -> c.scatter(sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
                recvcount, Datatype.use(recvtype), root));
    }

    /** In place at the root: it keeps its block in {@code buf}. */
    public void scatter(Object buf, int count, Datatype type, int root) throws MPIException {
        runCollective("MPI_Scatter", SCATTER, c -> c.inPlaceScatter(buf, count, Datatype.use(type), root));
    }

    public Request iScatter(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                            Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatter", SCATTER, c -> c.scatter(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, Datatype.use(recvtype), root));
    }

    public Request iScatter(Buffer buf, int count, Datatype type, int root) throws MPIException {
        return startCollective("MPI_Iscatter", SCATTER, c -> c.inPlaceScatter(buf, count, Datatype.use(type), root));
    }

    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Object recvbuf,
                         int recvcount, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c -> c.scatterv(sendbuf, sendcount, displs, Datatype.use(sendtype),
                recvbuf, recvcount, Datatype.use(recvtype), root));
    }

    /** In place at the root. */
    public void scatterv(Object sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c -> c.scatterv(sendbuf, sendcount, displs, Datatype.use(sendtype),
                null, 0, Datatype.use(sendtype), root));
    }

    /** At a rank other than the root, which sends nothing. */
    public void scatterv(Object recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        runCollective("MPI_Scatterv", SCATTERV, c -> c.scatterv(null, null, null, Datatype.use(recvtype), recvbuf,
                recvcount, Datatype.use(recvtype), root));
    }

    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, Buffer recvbuf,
                             int recvcount, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c -> c.scatterv(sendbuf, sendcount, displs,
                Datatype.use(sendtype), recvbuf, recvcount, Datatype.use(recvtype), root));
    }

    /** In place at the root. */
    public Request iScatterv(Buffer sendbuf, int[] sendcount, int[] displs, Datatype sendtype, int root)
            throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c -> c.scatterv(sendbuf, sendcount, displs,
                Datatype.use(sendtype), null, 0, Datatype.use(sendtype), root));
    }

    /** At a rank other than the root, which sends nothing. */
    public Request iScatterv(Buffer recvbuf, int recvcount, Datatype recvtype, int root) throws MPIException {
        return startCollective("MPI_Iscatterv", SCATTERV, c -> c.scatterv(null, null, null, Datatype.use(recvtype),
                recvbuf, recvcount, Datatype.use(recvtype), root));
    }

    public void allGather(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                          Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgather", ALLGATHER, c -> c.allGather(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, Datatype.use(recvtype)));
    }

    /** In place: each rank's block is already in {@code buf}. */
    public void allGather(Object buf, int count, Datatype type) throws MPIException {
        runCollective("MPI_Allgather", ALLGATHER, c -> c.allGather(null, count, Datatype.use(type), buf, count,
                Datatype.use(type)));
    }

    public Request iAllGather(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                              Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgather", ALLGATHER, c -> c.allGather(sendbuf, sendcount,
                Datatype.use(sendtype), recvbuf, recvcount, Datatype.use(recvtype)));
    }

    public Request iAllGather(Buffer buf, int count, Datatype type) throws MPIException {
        return startCollective("MPI_Iallgather", ALLGATHER, c -> c.allGather(null, count, Datatype.use(type), buf,
                count, Datatype.use(type)));
    }

    public void allGatherv(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int[] recvcount,
                           int[] displs, Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgatherv", ALLGATHERV, c -> c.allGatherv(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    /** In place. */
    public void allGatherv(Object recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        runCollective("MPI_Allgatherv", ALLGATHERV, c -> c.allGatherv(null, 0, Datatype.use(recvtype), recvbuf,
                recvcount, displs, Datatype.use(recvtype)));
    }

    public Request iAllGatherv(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int[] recvcount,
                               int[] displs, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgatherv", ALLGATHERV, c -> c.allGatherv(sendbuf, sendcount,
                Datatype.use(sendtype), recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    /** In place. */
    public Request iAllGatherv(Buffer recvbuf, int[] recvcount, int[] displs, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Iallgatherv", ALLGATHERV, c -> c.allGatherv(null, 0, Datatype.use(recvtype),
                recvbuf, recvcount, displs, Datatype.use(recvtype)));
    }

    public void allToAll(Object sendbuf, int sendcount, Datatype sendtype, Object recvbuf, int recvcount,
                         Datatype recvtype) throws MPIException {
        runCollective("MPI_Alltoall", ALLTOALL, c -> c.allToAll(sendbuf, sendcount, Datatype.use(sendtype), recvbuf,
                recvcount, Datatype.use(recvtype)));
    }

    public Request iAllToAll(Buffer sendbuf, int sendcount, Datatype sendtype, Buffer recvbuf, int recvcount,
                             Datatype recvtype) throws MPIException {
        return startCollective("MPI_Ialltoall", ALLTOALL, c -> c.allToAll(sendbuf, sendcount, Datatype.use(sendtype),
                recvbuf, recvcount, Datatype.use(recvtype)));
    }

    public void allToAllv(Object sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Object recvbuf,
                          int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        runCollective("MPI_Alltoallv", ALLTOALLV, c -> c.allToAllv(sendbuf, sendcount, sdispls, Datatype.use(sendtype),
                recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    public Request iAllToAllv(Buffer sendbuf, int[] sendcount, int[] sdispls, Datatype sendtype, Buffer recvbuf,
                              int[] recvcount, int[] rdispls, Datatype recvtype) throws MPIException {
        return startCollective("MPI_Ialltoallv", ALLTOALLV, c -> c.allToAllv(sendbuf, sendcount, sdispls,
                Datatype.use(sendtype), recvbuf, recvcount, rdispls, Datatype.use(recvtype)));
    }

    public void reduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Collectives c = enterCollective("MPI_Reduce");
        try {
            c.run(REDUCE, reduction(c, sendbuf, recvbuf, count, type, op, root, true));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException | MpiError e) {
            throw failure("MPI_Reduce", e);
        } finally {
            c.exit();
        }
    }

    /** In place at the root: its operand is in {@code buf}, which receives the result. */
    public void reduce(Object buf, int count, Datatype type, Op op, int root) throws MPIException {
        runCollective("MPI_Reduce", REDUCE, c -> inPlaceReduce(c, buf, count, type, op, root));
    }

    public Request iReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op, int root)
            throws MPIException {
        return startCollective("MPI_Ireduce", REDUCE, c -> reduction(c, sendbuf, recvbuf, count, type, op, root, true));
    }

    public Request iReduce(Buffer buf, int count, Datatype type, Op op, int root) throws MPIException {
        return startCollective("MPI_Ireduce", REDUCE, c -> inPlaceReduce(c, buf, count, type, op, root));
    }

    public void allReduce(Object sendbuf, Object recvbuf, int count, Datatype type, Op op) throws MPIException {
        Collectives c = enterCollective("MPI_Allreduce");
        try {
            c.run(ALLREDUCE, reduction(c, sendbuf, recvbuf, count, type, op, 0, false));
        } catch (MPIException | McaException | WireUpException | UncheckedIOException | MpiError e) {
            throw failure("MPI_Allreduce", e);
        } finally {
            c.exit();
        }
    }

    /** In place: each rank's operand is in {@code buf}, which receives the result. */
    public void allReduce(Object buf, int count, Datatype type, Op op) throws MPIException {
        allReduce(null, buf, count, type, op);
    }

    public Request iAllReduce(Buffer sendbuf, Buffer recvbuf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iallreduce", ALLREDUCE, c -> reduction(c, sendbuf, recvbuf, count, type, op, 0,
                false));
    }

    public Request iAllReduce(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Iallreduce", ALLREDUCE, c -> reduction(c, null, buf, count, type, op, 0, false));
    }

    public void reduceScatter(Object sendbuf, Object recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        runCollective("MPI_Reduce_scatter", REDUCE_SCATTER, c -> reduceScatter(c, sendbuf, recvbuf, recvcounts, type, op));
    }

    /** In place: {@code buf} holds the whole operand vector and receives this rank's block at its start. */
    public void reduceScatter(Object buf, int[] counts, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Reduce_scatter", REDUCE_SCATTER, c -> reduceScatter(c, null, buf, counts, type, op));
    }

    public Request iReduceScatter(Buffer sendbuf, Buffer recvbuf, int[] recvcounts, Datatype type, Op op)
            throws MPIException {
        return startCollective("MPI_Ireduce_scatter", REDUCE_SCATTER, c -> reduceScatter(c, sendbuf, recvbuf,
                recvcounts, type, op));
    }

    public Request iReduceScatter(Buffer buf, int[] counts, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Ireduce_scatter", REDUCE_SCATTER, c -> reduceScatter(c, null, buf, counts, type, op));
    }

    public void reduceScatterBlock(Object sendbuf, Object recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        runCollective("MPI_Reduce_scatter_block", REDUCE_SCATTER_BLOCK, c -> reduceScatterBlock(c, sendbuf, recvbuf,
                recvcount, type, op));
    }

    /** In place: {@code buf} holds size × count operands and receives this rank's block at its start. */
    public void reduceScatterBlock(Object buf, int count, Datatype type, Op op) throws MPIException {
        runCollective("MPI_Reduce_scatter_block", REDUCE_SCATTER_BLOCK, c -> reduceScatterBlock(c, null, buf, count, type, op));
    }

    public Request iReduceScatterBlock(Buffer sendbuf, Buffer recvbuf, int recvcount, Datatype type, Op op)
            throws MPIException {
        return startCollective("MPI_Ireduce_scatter_block", REDUCE_SCATTER_BLOCK, c -> reduceScatterBlock(c, sendbuf,
                recvbuf, recvcount, type, op));
    }

    public Request iReduceScatterBlock(Buffer buf, int count, Datatype type, Op op) throws MPIException {
        return startCollective("MPI_Ireduce_scatter_block", REDUCE_SCATTER_BLOCK, c -> reduceScatterBlock(c, null, buf,
                count, type, op));
    }

    // ---- reductions: the operation bound after the checks MPI makes first -------------------

    /** A reduction's call; its buffers, type and root are checked before its operation. */
    static CollCall reduction(Collectives c, Object sendbuf, Object recvbuf, int count, Datatype type, Op op,
                              int root, boolean rooted) throws MPIException {
        Type t = Datatype.use(type);
        c.checkReduction(sendbuf, recvbuf, t, root, rooted);
        return c.reduction(sendbuf, recvbuf, count, t, Op.reduction(op, type), root, rooted);
    }

    private static CollCall inPlaceReduce(Collectives c, Object buf, int count, Datatype type, Op op, int root)
            throws MPIException {
        Type t = Datatype.use(type);
        c.checkReduction(buf, null, t, root, true);
        return c.inPlaceReduce(buf, count, t, Op.reduction(op, type), root);
    }

    private static CollCall reduceScatter(Collectives c, Object sendbuf, Object recvbuf, int[] recvcounts,
                                          Datatype type, Op op) throws MPIException {
        Type t = Datatype.use(type);
        c.checkReduceScatter(sendbuf, recvbuf, t, recvcounts);
        return c.reduceScatter(sendbuf, recvbuf, recvcounts, t, Op.bound(op, type));
    }

    private static CollCall reduceScatterBlock(Collectives c, Object sendbuf, Object recvbuf, int count,
                                               Datatype type, Op op) throws MPIException {
        Type t = Datatype.use(type);
        c.checkReduction(sendbuf, recvbuf, t, 0, false);
        return c.reduceScatterBlock(sendbuf, recvbuf, count, t, Op.bound(op, type));
    }
}
