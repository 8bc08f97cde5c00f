package org.jmca.btl.verbs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;

/** Verbs modules of a job on the software device, all in this JVM, wired up to each other. */
final class SoftFabric implements AutoCloseable {
    private static final byte[] KEY = "fabric".getBytes();
    final Path directory;
    final List<VerbsBtlModule> modules = new ArrayList<>();
    /** endpoints.get(i).get(j): module i's endpoint to rank j (null for i == j). */
    final List<List<BtlEndpoint>> endpoints = new ArrayList<>();

    static VerbsSettings settings(int maxConnections, VictimPolicy policy) {
        return new VerbsSettings(new BtlProperties(1024, 2_000, 40_000, 4096, 16 * 1024,
                VerbsBtlComponent.DEFAULTS.flags()), 8, 64, maxConnections, policy, true, 64L << 20, 128 * 1024,
                2_000_000L, 128 * 1024, false);
    }

    SoftFabric(int size, VerbsSettings settings, SoftFaults faults) {
        this(size, settings, faults, false);
    }

    /** With {@code socketWire}, every port reaches every other one over the software device's socket wire. */
    SoftFabric(int size, VerbsSettings settings, SoftFaults faults, boolean socketWire) {
        try {
            directory = Files.createTempDirectory("verbs-fabric");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int rank = 0; rank < size; rank++) {
            SoftVerbs device = SoftVerbs.open(directory, rank + 1, size, settings.ringBytes(), faults,
                    new SoftVerbs.Network("localhost", KEY, socketWire));
            modules.add(new VerbsBtlModule(rank, size, device, settings));
        }
        List<Peer> peers = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            peers.add(new Peer(rank, "localhost", modules.get(rank).localAddress()));
        }
        for (VerbsBtlModule module : modules) {
            endpoints.add(module.addPeers(peers));
        }
    }

    /** Every module's connections, for the message of a test that saw no progress. */
    String describeConnections() {
        return modules.stream().map(VerbsBtlModule::describeConnections)
                .collect(java.util.stream.Collectors.joining("\n"));
    }

    /** Finalizes every module together (see {@link #finalizeTogether}), then removes the directory. */
    @Override
    public void close() {
        try {
            finalizeTogether(modules);
        } finally {
            removeDirectory();
        }
    }

    /**
     * Finalizes the modules, each on a thread of its own as each process finalizes: a module's
     * finalize waits, bounded, for its peers' answers to its BYE, which one by one on a single
     * thread would each wait out.
     */
    static void finalizeTogether(List<VerbsBtlModule> modules) {
        List<Thread> finalizers = new ArrayList<>();
        java.util.concurrent.ConcurrentLinkedQueue<Throwable> thrown = new java.util.concurrent.ConcurrentLinkedQueue<>();
        for (VerbsBtlModule module : modules) {
            finalizers.add(Thread.ofPlatform().name("finalize " + module).start(() -> {
                try {
                    module.finalizeModule();
                } catch (Throwable t) {
                    thrown.add(t);
                }
            }));
        }
        try {
            for (Thread finalizer : finalizers) {
                finalizer.join();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while the modules finalized", e);
        }
        if (!thrown.isEmpty()) {
            IllegalStateException failed = new IllegalStateException("finalize failed", thrown.peek());
            thrown.stream().skip(1).forEach(failed::addSuppressed);
            throw failed;
        }
    }

    /** Removes the fabric's directory (when the modules were finalized elsewhere). */
    void removeDirectory() {
        try (Stream<Path> files = Files.walk(directory)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
