package org.jmca.btl.verbs;

import java.lang.foreign.MemorySegment;

/**
 * An opened verbs device ({@code ibv_context}) with its one port: the calls of libibverbs that
 * the transport uses, in Java shape. Two devices implement it: rdma-core's, where an HCA exists,
 * and {@link SoftVerbs}, which keeps the same semantics between the processes of a job.
 *
 * <p>Threads: like a verbs context used by one thread, every object of a device is used by the
 * thread that owns progress.
 */
public interface Verbs extends AutoCloseable {

    /** The device's name ("soft0", "mlx5_0"). */
    String deviceName();

    /** This port's LID: how peers address it. */
    int lid();

    /** The largest path MTU the port supports, as an {@code ibv_mtu} code. */
    int activeMtu();

    /**
     * The subnet's view of the port of {@code lid}: false once it has gone down (its process
     * closed the device or died), so that connection management stops waiting for its answers.
     */
    boolean portActive(int lid);

    /**
     * What peers need, beyond the LID, to reach this port (published with the job's other
     * addresses); none for an HCA, whose subnet routes by LID.
     */
    default java.util.Map<String, String> portAddress() {
        return java.util.Map.of();
    }

    /** Tells the device how to reach the port of {@code lid}: its host and what it published. */
    default void learnPort(int lid, String hostname, java.util.Map<String, String> address) {
    }

    ProtectionDomain allocPd();

    /** {@code ibv_create_cq}: a completion queue of at most {@code depth} entries. */
    CompletionQueue createCq(int depth);

    /** Releases the device; what was made from it must be destroyed first. */
    @Override
    void close();

    /** {@code ibv_pd}: memory regions and queue pairs belong to one. */
    interface ProtectionDomain {
        /**
         * {@code ibv_reg_mr}: registers native memory with the access flags ({@code Ibv.ACCESS_*});
         * remote write or atomic access needs local write too.
         */
        MemoryRegion register(MemorySegment memory, int access);

        /** {@code ibv_dereg_mr}. */
        void deregister(MemoryRegion region);

        /** {@code ibv_create_qp}: a queue pair in RESET, with room for the given outstanding work. */
        QueuePair createQp(Ibv.QpType type, CompletionQueue sendCq, CompletionQueue recvCq, int maxSendWr,
                           int maxRecvWr);

        /** {@code ibv_dealloc_pd}. */
        void deallocate();
    }

    /** {@code ibv_cq}. */
    interface CompletionQueue {
        /**
         * {@code ibv_poll_cq}: takes at most {@code max} completions, oldest first, into {@code into}.
         *
         * @return how many were taken
         * @throws VerbsException if the queue overran (more completions than its depth were due)
         */
        int poll(WorkCompletion[] into, int max);

        /**
         * Like {@link #poll}, but when nothing has completed waits up to {@code timeoutNanos} for
         * a completion first: {@code ibv_req_notify_cq}, then a sleep on the queue's completion
         * channel, so an idle process costs no CPU.
         */
        int pollBlocking(WorkCompletion[] into, int max, long timeoutNanos);

        int depth();

        /** {@code ibv_destroy_cq}. */
        void destroy();
    }

    /** {@code ibv_qp}. */
    interface QueuePair {
        int qpNum();

        Ibv.QpType type();

        Ibv.QpState state();

        /**
         * {@code ibv_modify_qp}: moves the queue pair to {@code attributes.state} (if in the mask)
         * and sets the attributes in {@code mask}; the mask must hold exactly the attributes
         * {@code ibv_modify_qp(3)} requires for the transition, plus optional ones it allows.
         */
        void modify(QpAttributes attributes, int mask);

        /** {@code ibv_post_send}. In ERR the request completes at once with a flush error. */
        void postSend(SendRequest request);

        /** {@code ibv_post_recv}. */
        void postRecv(RecvRequest request);

        /**
         * {@code ibv_attach_mcast}: datagrams sent to the group reach this UD queue pair too
         * (also those sent from this port, as multicast loopback is on by default).
         */
        void attachMulticast(MulticastGroup group);

        /** {@code ibv_detach_mcast}. */
        void detachMulticast(MulticastGroup group);

        /** {@code ibv_destroy_qp}: outstanding work is dropped without completions. */
        void destroy();
    }
}
