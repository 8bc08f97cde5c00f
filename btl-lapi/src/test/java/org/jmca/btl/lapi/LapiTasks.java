package org.jmca.btl.lapi;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import org.jmca.common.lapi.LapiMode;
import org.jmca.mca.btl.Peer;

/** LAPI tasks of one job in this JVM, sharing a fabric directory: what the tests run on. */
final class LapiTasks implements AutoCloseable {
    static final byte[] KEY = {1, 2, 3, 4};

    final List<LapiTask> tasks = new ArrayList<>();
    private final Path fabric;

    static LapiSettings settings(LapiMode mode) {
        return settings(mode, LapiSettings.Wire.AUTO);
    }

    static LapiSettings settings(LapiMode mode, LapiSettings.Wire wire) {
        return new LapiSettings(mode, 4096, 64 * 1024, 50, 20, wire);
    }

    /** {@code n} tasks on one host, connected. */
    static LapiTasks connected(int n, LapiSettings settings) {
        LapiTasks job = new LapiTasks(n, settings);
        List<Peer> peers = job.peers();
        job.tasks.forEach(task -> task.connect(peers));
        return job;
    }

    /** {@code n} tasks on one host, opened but not connected: {@link #peers()} is what to connect them with. */
    LapiTasks(int n, LapiSettings settings) {
        try {
            fabric = Files.createTempDirectory("lapi-fabric");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        for (int t = 0; t < n; t++) {
            tasks.add(LapiTask.open(settings, fabric, t, n, "localhost", KEY));
        }
    }

    List<Peer> peers() {
        List<Peer> peers = new ArrayList<>();
        for (LapiTask task : tasks) {
            peers.add(new Peer(task.task(), "localhost", task.address()));
        }
        return peers;
    }

    /** The directory the tasks' files are in. */
    Path fabric() {
        return fabric;
    }

    LapiTask get(int t) {
        return tasks.get(t);
    }

    @Override
    public void close() {
        tasks.forEach(LapiTask::close);
        try (Stream<Path> files = Files.walk(fabric)) {
            files.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
