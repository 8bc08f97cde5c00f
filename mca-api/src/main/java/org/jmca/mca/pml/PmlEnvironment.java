package org.jmca.mca.pml;

import java.util.List;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.progress.ProgressEngine;

/**
 * What the PML is given at wire-up.
 *
 * @param rank     this process's rank in the job
 * @param peers    every process of the job, indexed by rank, with the addresses they published
 * @param btls     the selected BTL modules, highest priority first
 * @param progress the engine the PML registers its progress with
 */
public record PmlEnvironment(int rank, List<Peer> peers, List<BtlModule> btls, ProgressEngine progress) {
    public PmlEnvironment {
        peers = List.copyOf(peers);
        btls = List.copyOf(btls);
    }
}
