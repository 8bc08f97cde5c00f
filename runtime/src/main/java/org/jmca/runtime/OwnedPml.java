package org.jmca.runtime;

import java.lang.foreign.MemorySegment;
import java.util.List;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.pml.PmlMessage;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The PML under asynchronous progress: every call is made inside the library, owning progress
 * ({@link ProgressEngine#enter()}), since a helper thread may be progressing the same PML while
 * the application computes. MPI calls that make several PML calls enter once around all of them.
 */
final class OwnedPml implements PmlModule {
    private final PmlModule pml;
    private final ProgressEngine engine;

    OwnedPml(PmlModule pml, ProgressEngine engine) {
        this.pml = pml;
        this.engine = engine;
    }

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int tag, int context, SendMode mode) {
        engine.enter();
        try {
            return pml.isend(data, dest, tag, context, mode);
        } finally {
            engine.exit();
        }
    }

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int tag, int context) {
        engine.enter();
        try {
            return pml.irecv(buffer, source, tag, context);
        } finally {
            engine.exit();
        }
    }

    @Override
    public PmlStatus iprobe(int source, int tag, int context) {
        engine.enter();
        try {
            return pml.iprobe(source, tag, context);
        } finally {
            engine.exit();
        }
    }

    @Override
    public PmlMessage improbe(int source, int tag, int context) {
        engine.enter();
        try {
            return pml.improbe(source, tag, context);
        } finally {
            engine.exit();
        }
    }

    @Override
    public PmlRequest imrecv(PmlMessage message, MemorySegment buffer) {
        engine.enter();
        try {
            return pml.imrecv(message, buffer);
        } finally {
            engine.exit();
        }
    }

    @Override
    public BtlEndpoint endpoint(int rank) {
        return pml.endpoint(rank);
    }

    @Override
    public boolean hasPendingReceives() {
        engine.enter();
        try {
            return pml.hasPendingReceives();
        } finally {
            engine.exit();
        }
    }

    @Override
    public boolean hasPendingSends() {
        engine.enter();
        try {
            return pml.hasPendingSends();
        } finally {
            engine.exit();
        }
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return pml.performanceVariables();
    }

    @Override
    public void finalizeModule() {
        pml.finalizeModule();
    }

    @Override
    public int peerCount() {
        return pml.peerCount();
    }

    @Override
    public void addBridgedPeers(org.jmca.mca.btl.Bridge bridge) {
        engine.enter();
        try {
            pml.addBridgedPeers(bridge);
        } finally {
            engine.exit();
        }
    }
}
