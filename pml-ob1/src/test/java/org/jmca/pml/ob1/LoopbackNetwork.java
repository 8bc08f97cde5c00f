package org.jmca.pml.ob1;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.BtlReceiver;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * Several ob1 modules in one JVM, joined by an in-memory BTL that delivers fragments only when the
 * receiving rank runs progress, refuses sends at random (back-pressure) when asked to, and, when
 * asked to, delivers them in random order (as several transports to one peer may).
 */
final class LoopbackNetwork {
    final List<PmlModule> pmls = new ArrayList<>();
    final List<Engine> engines = new ArrayList<>();
    private final List<Loopback> btls = new ArrayList<>();
    private final Random random;
    private final double refuseProbability;
    private final boolean reorder;
    /** Messages of at least this many bytes may be read with get (RGET); Long.MAX_VALUE: never. */
    long getMin = Long.MAX_VALUE;
    /** Fragments sent, by BTL tag. */
    final int[] sentByTag = new int[8];

    LoopbackNetwork(int size, long eagerLimit, long maxSendSize, Random random, double refuseProbability,
                    boolean reorder) {
        this.random = random;
        this.refuseProbability = refuseProbability;
        this.reorder = reorder;
        List<Peer> peers = new ArrayList<>();
        for (int r = 0; r < size; r++) {
            peers.add(new Peer(r, "localhost", Map.of()));
            btls.add(new Loopback(r, new BtlProperties(100, 1000, 1000, eagerLimit, maxSendSize,
                    EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.GET))));
        }
        for (int r = 0; r < size; r++) {
            Engine engine = new Engine();
            engines.add(engine);
            pmls.add(new Ob1PmlModule(new PmlEnvironment(r, peers, List.of(btls.get(r)), engine)));
        }
    }

    /** One progress turn of one rank. */
    int progress(int rank) {
        return engines.get(rank).progress();
    }

    /** Hands rank {@code to} a fragment as if rank {@code from} had sent it, at once (a fuzzer's way in). */
    void inject(int to, int from, byte tag, MemorySegment fragment) {
        Loopback destination = btls.get(to);
        destination.receiver.onFragment(destination.endpoints.get(from), tag, fragment, 0, fragment.byteSize());
    }

    /** Progress on every rank until {@code done}, failing after too many idle rounds. */
    void runUntil(BooleanSupplier done) {
        int idleRounds = 0;
        while (!done.getAsBoolean()) {
            int events = 0;
            for (int r = 0; r < engines.size(); r++) {
                events += progress(r);
            }
            idleRounds = events == 0 && !inFlight() ? idleRounds + 1 : 0;
            if (idleRounds > 1000) {
                throw new AssertionError("no progress: the network is quiet but the condition does not hold");
            }
        }
    }

    /** Progress until nothing moves any more. */
    void quiesce() {
        int quiet = 0;
        while (quiet < 50) {
            int events = 0;
            for (int r = 0; r < engines.size(); r++) {
                events += progress(r);
            }
            quiet = events == 0 && !inFlight() ? quiet + 1 : 0;
        }
    }

    private boolean inFlight() {
        for (int r = 0; r < btls.size(); r++) {
            if (!btls.get(r).inbox.isEmpty() || pmls.get(r).hasPendingSends()) {
                return true;
            }
        }
        return false;
    }

    /** A minimal engine: callbacks run in order on each turn. */
    static final class Engine implements ProgressEngine {
        private final List<ProgressCallback> callbacks = new ArrayList<>();
        /** Makes the PML believe its turns run on an asynchronous-progress helper thread. */
        boolean helper;

        @Override
        public boolean onHelperThread() {
            return helper;
        }

        @Override
        public Registration register(ProgressCallback callback, Priority priority) {
            callbacks.add(callback);
            return () -> callbacks.remove(callback);
        }

        @Override
        public int progress() {
            int events = 0;
            for (ProgressCallback callback : callbacks) {
                events += callback.progress();
            }
            return events;
        }

        @Override
        public void waitUntil(BooleanSupplier done) {
            BusySpinIdleStrategy idle = new BusySpinIdleStrategy();
            while (!done.getAsBoolean()) {
                idle.idle(progress());
            }
        }

        @Override
        public String waitStrategy() {
            return "spin";
        }

        @Override
        public void close() {
        }
    }

    private record Arrival(BtlEndpoint from, byte tag, MemorySegment fragment) { }

    private final class Loopback implements BtlModule {
        final int rank;
        final BtlProperties properties;
        final List<Arrival> inbox = new ArrayList<>();
        BtlReceiver receiver;
        List<BtlEndpoint> endpoints;

        Loopback(int rank, BtlProperties properties) {
            this.rank = rank;
            this.properties = properties;
        }

        @Override
        public String componentName() {
            return "loopback";
        }

        @Override
        public BtlProperties properties() {
            return properties;
        }

        @Override
        public Map<String, String> localAddress() {
            return Map.of();
        }

        @Override
        public List<BtlEndpoint> addPeers(List<Peer> peers) {
            endpoints = new ArrayList<>();
            for (Peer peer : peers) {
                int peerRank = peer.rank();
                endpoints.add(new BtlEndpoint() {
                    @Override
                    public int rank() {
                        return peerRank;
                    }

                    @Override
                    public BtlModule module() {
                        return Loopback.this;
                    }
                });
            }
            return endpoints;
        }

        @Override
        public void setReceiver(BtlReceiver receiver) {
            this.receiver = receiver;
        }

        @Override
        public boolean send(BtlEndpoint to, byte tag, MemorySegment header, MemorySegment payload) {
            if (header.byteSize() + payload.byteSize() > properties.maxSendSize()) {
                throw new AssertionError("fragment larger than maxSendSize");
            }
            if (random.nextDouble() < refuseProbability) {
                return false;
            }
            sentByTag[tag]++;
            MemorySegment copy = MemorySegment.ofArray(new byte[(int) (header.byteSize() + payload.byteSize())]);
            MemorySegment.copy(header, 0, copy, 0, header.byteSize());
            MemorySegment.copy(payload, 0, copy, header.byteSize(), payload.byteSize());
            Loopback destination = btls.get(to.rank());
            destination.inbox.add(new Arrival(destination.endpoints.get(rank), tag, copy));
            return true;
        }

        @Override
        public boolean canGet(long bytes) {
            return bytes >= getMin;
        }

        /** The peers share this JVM, so their native memory is ours to read. */
        @Override
        public boolean get(BtlEndpoint from, long remoteAddress, long remoteKey, MemorySegment local) {
            MemorySegment.copy(MemorySegment.ofAddress(remoteAddress).reinterpret(local.byteSize()), 0, local, 0,
                    local.byteSize());
            return true;
        }

        @Override
        public int progress() {
            int n = 0;
            for (int pending = inbox.size(); pending > 0; pending--) {
                Arrival arrival = inbox.remove(reorder ? random.nextInt(inbox.size()) : 0);
                receiver.onFragment(arrival.from(), arrival.tag(), arrival.fragment(), 0, arrival.fragment().byteSize());
                n++;
            }
            return n;
        }

        @Override
        public boolean hasPendingSends() {
            return false;
        }

        @Override
        public void finalizeModule() {
        }
    }
}
