package org.jmca.rte.launcher;

import java.io.IOException;
import java.io.PrintStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;

/**
 * Where the ranks' output lines go: jmpirun's own stdout and stderr, prefixed
 * {@code [1,RANK]<stdout>:} under {@code --tag-output}; and, under {@code --output-filename DIR},
 * also into {@code DIR/1/rank.RANK/stdout} and {@code stderr}, as Open MPI 4 lays them out.
 * Lines of local ranks and of ranks on other hosts (through their daemon) alike; any thread.
 */
final class RankOutput implements AutoCloseable {
    private final boolean tag;
    private final PrintStream out;
    private final PrintStream err;
    private final Path directory;
    private final Map<String, PrintStream> files = new HashMap<>();
    private final Launcher.Listener listener;

    /**
     * @param directory the {@code --output-filename} directory, or null
     * @param listener  who else gets each line (the launch API), or null
     */
    RankOutput(boolean tag, PrintStream out, PrintStream err, Path directory, Launcher.Listener listener) {
        this.tag = tag;
        this.out = out;
        this.err = err;
        this.directory = directory == null ? null : directory.toAbsolutePath();
        this.listener = listener;
    }

    void line(int rank, boolean stderr, String line) {
        if (listener != null) {
            listener.line(rank, stderr, line);
        }
        String name = stderr ? "stderr" : "stdout";
        PrintStream target = stderr ? err : out;
        synchronized (target) {
            target.println(tag ? "[1," + rank + "]<" + name + ">:" + line : line);
        }
        if (directory != null) {
            synchronized (files) {
                files.computeIfAbsent(rank + "/" + name, k -> open(rank, name)).println(line);
            }
        }
    }

    private PrintStream open(int rank, String name) {
        Path dir = directory.resolve("1").resolve("rank." + rank);
        try {
            Files.createDirectories(dir);
            return new PrintStream(Files.newOutputStream(dir.resolve(name)), true, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("jmpirun: cannot write rank " + rank + "'s " + name + " into " + dir, e);
        }
    }

    @Override
    public void close() {
        synchronized (files) {
            files.values().forEach(PrintStream::close);
        }
    }
}
