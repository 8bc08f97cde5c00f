package org.jmca.mca.btl;

/**
 * This process's doorbell on a transport whose peers can wake it: a word a sleeping helper
 * thread waits on, which a peer rings after it has announced a rendezvous (see
 * {@link BtlModule#notifyPeer}). A peer rings only while the bell is armed, so an application
 * that is inside the library, or that has nothing to receive, costs its peers nothing.
 *
 * <p>{@link #arm()} and {@link #disarm()} are called by the thread that owns progress;
 * {@link #await} by the helper thread.
 */
public interface BtlDoorbell {

    /**
     * Lets peers ring. Followed by a full fence, so that {@link #hasArrivals()} read afterwards
     * sees what a peer announced before it could see the bell armed.
     */
    void arm();

    /** Stops peers from ringing. */
    void disarm();

    /**
     * True if a fragment waits to be polled on this transport. Read after {@link #arm()}, it tells
     * whether something arrived before the bell was armed (its sender did not ring).
     */
    boolean hasArrivals();

    /** True while armed. */
    boolean armed();

    /** The number of rings so far; {@link #await} sleeps while it is still {@code seen}. */
    int rings();

    /**
     * Sleeps until the ring count differs from {@code seen} or {@code timeoutNanos} pass
     * (spurious wake-ups are possible: compare {@link #rings()} again).
     */
    void await(int seen, long timeoutNanos);

    /**
     * Rings this process's own bell, whether armed or not: to hand the helper what arrived before
     * the bell was armed, or to wake it when it must stop.
     */
    void ringSelf();
}
