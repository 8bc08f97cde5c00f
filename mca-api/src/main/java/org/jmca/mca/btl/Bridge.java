package org.jmca.mca.btl;

import java.util.List;

/**
 * Processes of another job made reachable (MPI's connect/accept and spawn): they get the indices
 * after this process's peers, and a connection between the two jobs shows the bridge's secret
 * instead of the job's.
 *
 * @param key            the secret both jobs agreed on; only its holders are let in
 * @param initiator      whether this side opens the connections (the other only accepts them)
 * @param peers          the other job's processes; their {@code rank} is their index here
 * @param selfIndexAtPeer this process's index in each peer's numbering, in the order of {@code peers}
 */
public record Bridge(byte[] key, boolean initiator, List<Peer> peers, int[] selfIndexAtPeer) {
    public Bridge {
        key = key.clone();
        peers = List.copyOf(peers);
        selfIndexAtPeer = selfIndexAtPeer.clone();
    }
}
