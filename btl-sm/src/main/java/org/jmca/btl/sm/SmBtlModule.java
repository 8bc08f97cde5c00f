package org.jmca.btl.sm;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import org.jmca.btl.base.CrossMemory;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.IncomingRings;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.btl.BtlDoorbell;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.btl.PeerFailureException;

/**
 * btl/sm's module: its own segment, where every local peer has a ring to write to this
 * process, and the peers' segments mapped to write to them. Progress polls the incoming rings.
 * The segment file is removed at finalize, by a shutdown hook if the JVM exits without
 * finalizing, and by jmpirun (it removes the job's session directory) if the process is killed.
 */
final class SmBtlModule implements BtlModule {
    static final String SEGMENT_KEY = "sm.segment";

    private final int rank;
    private final String hostname;
    private final BtlProperties offered;
    /**
     * Why single copy cannot be used here ({@link CrossMemory#probe}), or null if it can; found on
     * a thread of its own while the job wires up, as linking process_vm_readv makes some thirty
     * method-handle classes that MPI.Init need not wait for. Null when single copy is not wanted.
     */
    private final CompletableFuture<String> singleCopyProbe;
    /** Made once the probe has answered (see {@link #resolved()}). */
    private BtlProperties properties;
    private final Arena arena = Arena.ofShared();
    private final SmSegment own;
    private final Thread removeOnExit;
    private final IncomingRings incoming = new IncomingRings();
    private BtlReceiver receiver;
    private boolean finalized;
    /** Reads peers' memory for messages of at least {@link #singleCopyMin} bytes; null when not used. */
    private CrossMemory crossMemory;
    private final long singleCopyMin;
    /** This process's doorbell (asynchronous progress), made when first asked for; null when futexes do not work here. */
    private FutexDoorbell doorbell;
    private boolean doorbellProbed;

    /** @param singleCopyMin the smallest message moved by single copy; {@code Long.MAX_VALUE}: never */
    /** @param offered what the module offers before single copy is known: sending alone */
    SmBtlModule(int rank, int size, String hostname, Path file, int ringCapacity, BtlProperties offered,
                long singleCopyMin) {
        this.rank = rank;
        this.hostname = hostname;
        this.own = SmSegment.create(file, size, ringCapacity, arena);
        this.singleCopyMin = singleCopyMin;
        this.offered = offered;
        this.singleCopyProbe = singleCopyMin == Long.MAX_VALUE ? null : new CompletableFuture<>();
        if (singleCopyProbe != null) {
            Thread.ofPlatform().daemon().name("btl-sm-probe").start(() -> singleCopyProbe.complete(CrossMemory.probe()));
        }
        this.removeOnExit = new Thread(() -> removeFile(own.path), "btl-sm-cleanup");
        Runtime.getRuntime().addShutdownHook(removeOnExit);
    }

    @Override
    public String componentName() {
        return "sm";
    }

    @Override
    public BtlProperties properties() {
        return resolved();
    }

    /** The properties, once the single-copy probe has answered (at the latest when the peers are added). */
    private synchronized BtlProperties resolved() {
        if (properties == null) {
            boolean singleCopy = singleCopyProbe != null && singleCopyProbe.join() == null;
            crossMemory = singleCopy ? new CrossMemory(arena) : null;
            properties = singleCopy ? offered.withFlags(EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.GET))
                    : offered;
        }
        return properties;
    }

    @Override
    public Map<String, String> localAddress() {
        return Map.of(SEGMENT_KEY, own.path.toString());
    }

    @Override
    public List<BtlEndpoint> addPeers(List<Peer> peers) {
        resolved();
        List<BtlEndpoint> endpoints = new ArrayList<>();
        List<SharedRing> rings = new ArrayList<>();
        List<SharedRing.Handler> ringHandlers = new ArrayList<>();
        for (Peer peer : peers) {
            String segment = peer.addresses().get(SEGMENT_KEY);
            if (peer.rank() == rank || segment == null || !peer.hostname().equals(hostname)) {
                endpoints.add(null);
                continue;
            }
            SmSegment theirs = SmSegment.open(Path.of(segment), arena);
            if (theirs.mapped()) {
                removeFile(theirs.path);
            }
            SmEndpoint endpoint = new SmEndpoint(peer.rank(), this, theirs, rank);
            endpoints.add(endpoint);
            rings.add(own.ring(peer.rank()));
            ringHandlers.add((tag, data, offset, length) -> receiver.onFragment(endpoint, tag, data, offset, length));
        }
        incoming.set(rings, ringHandlers);
        if (own.expect(rings.size())) {
            removeFile(own.path);
        }
        return endpoints;
    }

    @Override
    public void setReceiver(BtlReceiver receiver) {
        this.receiver = receiver;
    }

    @Override
    public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
        checkOpen();
        SmEndpoint endpoint = (SmEndpoint) to;
        return endpoint.outgoing.offer(tag, header, payload) || refused(endpoint);
    }

    @Override
    public boolean send(BtlEndpoint to, byte tag, long header0, long header1, MemorySegment payload) {
        checkOpen();
        SmEndpoint endpoint = (SmEndpoint) to;
        return endpoint.outgoing.offer(tag, header0, header1, payload) || refused(endpoint);
    }

    /**
     * A full ring: wait for the peer to drain it, unless it finalized (its segment says so) or its
     * process is gone (asked of the kernel once in 4096 refusals: a slow peer is the common case).
     */
    private boolean refused(SmEndpoint to) {
        if (!to.segment.isOpen()) {
            throw new PeerFailureException(to.rank(), "btl/sm: rank " + rank + " cannot send to rank " + to.rank()
                    + ": it has finalized, and its ring from this rank is full");
        }
        if ((++to.refusals & 4095) == 0 && !ProcessHandle.of(to.pid).map(ProcessHandle::isAlive).orElse(false)) {
            throw new PeerFailureException(to.rank(), "btl/sm: rank " + rank + " cannot send to rank " + to.rank()
                    + ": its process (pid " + to.pid + ") is gone");
        }
        return false;
    }

    /** The rings address memory directly: after finalize (the segments unmapped) a send must fail here. */
    private void checkOpen() {
        if (finalized) {
            throw new IllegalStateException("btl/sm: rank " + rank + " sends after finalize");
        }
    }

    @Override
    public boolean canGet(long bytes) {
        return crossMemory != null && bytes >= singleCopyMin;
    }

    /** One copy: the kernel reads the peer's native buffer straight into ours (process_vm_readv). */
    @Override
    public boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
        crossMemory.read(((SmEndpoint) from).pid, remoteAddress, local);
        return true;
    }

    @Override
    public synchronized BtlDoorbell doorbell() {
        if (!doorbellProbed) {
            doorbellProbed = true;
            FutexDoorbell bell = own.ownDoorbell(arena, this::hasArrivals);
            doorbell = bell.probe() == null ? bell : null;
        }
        return doorbell;
    }

    @Override
    public boolean notifyPeer(BtlEndpoint to) {
        return ((SmEndpoint) to).doorbell.ringIfArmed();
    }

    @Override
    public int progress() {
        return incoming.poll();
    }

    private boolean hasArrivals() {
        return incoming.hasRecord();
    }

    @Override
    public boolean hasPendingSends() {
        return false;
    }

    @Override
    public void finalizeModule() {
        if (finalized) {
            return;
        }
        finalized = true;
        own.close();
        incoming.clear();
        removeFile(own.path);
        try {
            Runtime.getRuntime().removeShutdownHook(removeOnExit);
        } catch (IllegalStateException e) {
            // Already shutting down: the hook runs anyway.
        }
        arena.close();
    }

    private void removeFile(Path path) {
        try {
            Files.deleteIfExists(path);
        } catch (IOException e) {
            System.err.println("jmca: btl/sm: rank " + rank + " could not remove " + path + ": " + e.getMessage());
        }
    }
}
