package org.jmca.common.gm;

import java.lang.foreign.MemorySegment;

/**
 * An open GM port ({@code gm_open}). Every buffer handed to it must lie in registered memory
 * and belongs to the port until its callback or receive event; every send takes a send token
 * until its callback, every provided buffer a receive token until its receive event. Messages
 * from one port to another at one priority arrive in the order sent. Single-threaded, like a
 * GM port: the thread that owns progress makes every call.
 */
public interface GmPort extends AutoCloseable {

    /** {@code gm_max_length_for_size}: the longest message of size class {@code size}, {@code 2^size - 8}. */
    static long maxLengthForSize(int size) {
        if (size < 4 || size > 31) {
            throw new GmException("size class " + size + " is outside 4..31");
        }
        return (1L << size) - 8;
    }

    /** {@code gm_min_size_for_length}: the smallest size class that holds {@code length} bytes. */
    static int minSizeForLength(long length) {
        for (int size = 4; size <= 31; size++) {
            if (length <= maxLengthForSize(size)) {
                return size;
            }
        }
        throw new GmException("a message of " + length + " bytes is longer than any size class");
    }

    /** This port's node id ({@code gm_get_node_id}): how peers address it, with {@link #portId}. */
    int nodeId();

    int portId();

    /** {@code gm_num_send_tokens}: sends that may be outstanding now. */
    int sendTokens();

    /** {@code gm_num_receive_tokens}: buffers that may be provided now. */
    int receiveTokens();

    /**
     * {@code gm_register_memory}: pins native memory for transfers; costs time per page, which a
     * pipeline can hide behind transfers.
     */
    void register(MemorySegment memory);

    /** {@code gm_deregister_memory}. */
    void deregister(MemorySegment memory);

    /**
     * {@code gm_provide_receive_buffer_with_tag}: {@code buffer} (registered, at least
     * {@link #maxLengthForSize(int) maxLengthForSize(size)} bytes) waits for a message of size
     * class {@code size} and {@code priority}; takes a receive token.
     */
    void provideReceiveBuffer(MemorySegment buffer, int size, GmPriority priority, int tag);

    /**
     * {@code gm_send_with_callback}: sends {@code message} (registered, at most
     * {@code maxLengthForSize(size)} bytes) to a buffer of size class {@code size} and
     * {@code priority} at the target port; takes a send token, which {@code callback} gives back
     * (from {@link #receive}) once the message is in a buffer there. A message for which the target
     * has no buffer waits until it provides one.
     */
    void send(MemorySegment message, int size, GmPriority priority, int targetNode, int targetPort,
              SendCallback callback);

    /**
     * {@code gm_directed_send_with_callback}: writes {@code source} (registered) into the target's
     * registered memory at {@code remoteAddress}; no receive buffer or event at the target. Takes
     * a send token until {@code callback}; in order with the sends of the same priority.
     */
    void directedSend(MemorySegment source, long remoteAddress, GmPriority priority, int targetNode, int targetPort,
                      SendCallback callback);

    /**
     * {@code gm_receive} (with {@code gm_unknown}'s handling of send completions): moves the
     * port on, runs the callbacks of completed sends, and returns the next receive event or
     * {@link GmEvent#NONE}.
     */
    GmEvent receive();

    /** {@code gm_close}: outstanding sends and buffers are dropped. */
    @Override
    void close();

    /** Called with the outcome of a send; the send token is back when it runs. */
    @FunctionalInterface
    interface SendCallback {
        void sent(GmStatus status);
    }
}
