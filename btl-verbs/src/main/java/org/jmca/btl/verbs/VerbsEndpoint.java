package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayDeque;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;

/**
 * The way to one peer over verbs, and the state of the RC connection to it, made on demand and
 * torn down when connections run short:
 *
 * <pre>
 *   IDLE --first send--> CONNECTING --REP--> CONNECTED --victim, or peer's BREAK--> CLOSING --> IDLE
 *   IDLE --peer's REQ--> ACCEPTED --RTU, or first fragment--> CONNECTED
 *   any --peer's BYE (it finalizes)--> IDLE, for good
 * </pre>
 *
 * A connection is numbered ({@link #generation}): both sides count the connections they made
 * with each other, and every connection-manager message names the one it is about, so a late
 * duplicate of an earlier one's is recognised.
 */
final class VerbsEndpoint implements BtlEndpoint {
    enum State { IDLE, CONNECTING, ACCEPTED, CONNECTED, CLOSING }

    final int rank;
    final int lid;
    final int cmQpn;
    final long mailboxAddress;
    final int mailboxRkey;
    private final VerbsBtlModule module;

    State state = State.IDLE;
    int generation;
    boolean everConnected;
    Verbs.QueuePair qp;
    int psn;
    /** The connection's receive buffers, in memory of their own: freed when the connection is torn down. */
    Arena receiveArena;
    MemorySegment receiveSlab;
    MemoryRegion receiveRegion;

    /** Fragments sent and received on this connection; receive buffers reposted, and how many the peer was told of. */
    long sent;
    long received;
    long reposted;
    long repostedTold;
    /** Work requests posted to the QP and not completed yet. */
    int outstanding;
    long lastUsed;
    long connectedAt;
    int tearDowns;

    /** Tear-down: our BREAK went out, the peer acknowledged it, the peer's BREAK came with its count of fragments sent. */
    boolean breakSent;
    boolean breakAcked;
    boolean peerBreakSeen;
    long peerSent;
    /**
     * The peer said goodbye (BYE: it finalizes): what it sent has come, it takes nothing more, and
     * its queue pair goes once this side answered; an error of work posted to it is no error. A
     * process that finalized never comes back, so this is never cleared.
     */
    boolean peerFinalized;
    /** This side finalizes: its BYE went to the peer, and the peer answered (BYE_ACK, or its own BYE). */
    boolean byeSent;
    boolean byeAcked;
    /** When the connection-manager message that waits for an answer was last sent. */
    long cmSentAt;
    /** Fragments accepted while there was no connection (or no credit), sent in order once there is. */
    final ArrayDeque<Fragment> pending = new ArrayDeque<>();

    /** A fragment waiting for its connection: the tag, and header and payload together. */
    record Fragment(byte tag, MemorySegment bytes) {
    }

    VerbsEndpoint(VerbsBtlModule module, int rank, int lid, int cmQpn, long mailboxAddress, int mailboxRkey) {
        this.module = module;
        this.rank = rank;
        this.lid = lid;
        this.cmQpn = cmQpn;
        this.mailboxAddress = mailboxAddress;
        this.mailboxRkey = mailboxRkey;
    }

    @Override
    public int rank() {
        return rank;
    }

    @Override
    public BtlModule module() {
        return module;
    }

    long lastUsed() {
        return lastUsed;
    }

    int tearDowns() {
        return tearDowns;
    }

    @Override
    public String toString() {
        return "verbs endpoint of rank " + rank + " (" + state + ", connection " + generation + ", sent " + sent
                + ", received " + received + ", outstanding " + outstanding + ", pending " + pending.size()
                + (state == State.CLOSING ? ", break sent " + breakSent + " acked " + breakAcked + " peer's seen "
                        + peerBreakSeen + " counting " + peerSent : "") + (peerFinalized ? ", peer finalized" : "")
                + (byeSent ? ", bye acked " + byeAcked : "") + ")";
    }
}
