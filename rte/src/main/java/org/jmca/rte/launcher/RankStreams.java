package org.jmca.rte.launcher;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * {@code System.out} and {@code System.err} while thread ranks run: what a rank's threads write
 * (the threads it starts included) becomes that rank's lines, told to its job's listener as a
 * rank process's output is; what any other thread writes goes where it went before.
 */
final class RankStreams {
    private static final InheritableThreadLocal<Rank> CURRENT = new InheritableThreadLocal<>();
    private static int users;
    private static PrintStream out;
    private static PrintStream err;

    private RankStreams() {
    }

    /** A rank's two streams, cut into lines. */
    static final class Rank {
        private final Line stdout;
        private final Line stderr;

        Rank(int rank, Launcher.Listener listener) {
            this.stdout = new Line(rank, false, listener);
            this.stderr = new Line(rank, true, listener);
        }

        /** Tells what is left without a line break. */
        void flush() {
            stdout.flush();
            stderr.flush();
        }
    }

    /** Routes the JVM's standard streams while one or more thread jobs run. */
    static synchronized void install() {
        if (users++ == 0) {
            out = System.out;
            err = System.err;
            // the original streams' encodings, so that what other threads print is unchanged
            System.setOut(new PrintStream(new Router(out, false), true, out.charset()));
            System.setErr(new PrintStream(new Router(err, true), true, err.charset()));
        }
    }

    static synchronized void uninstall() {
        if (--users == 0) {
            System.setOut(out);
            System.setErr(err);
        }
    }

    /** The calling thread, and the threads it starts from now on, write as {@code rank}. */
    static void attach(Rank rank) {
        CURRENT.set(rank);
    }

    static void detach() {
        CURRENT.remove();
    }

    private static final class Router extends OutputStream {
        private final PrintStream original;
        private final boolean stderr;

        Router(PrintStream original, boolean stderr) {
            this.original = original;
            this.stderr = stderr;
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] bytes, int offset, int length) {
            Rank rank = CURRENT.get();
            if (rank == null) {
                original.write(bytes, offset, length);
            } else {
                (stderr ? rank.stderr : rank.stdout).append(bytes, offset, length);
            }
        }

        @Override
        public void flush() {
            original.flush();
        }
    }

    private static final class Line {
        private final int rank;
        private final boolean stderr;
        private final Launcher.Listener listener;
        private final ByteArrayOutputStream pending = new ByteArrayOutputStream();

        Line(int rank, boolean stderr, Launcher.Listener listener) {
            this.rank = rank;
            this.stderr = stderr;
            this.listener = listener;
        }

        synchronized void append(byte[] bytes, int offset, int length) {
            for (int i = offset; i < offset + length; i++) {
                if (bytes[i] == '\n') {
                    emit();
                } else {
                    pending.write(bytes[i]);
                }
            }
        }

        synchronized void flush() {
            if (pending.size() > 0) {
                emit();
            }
        }

        private void emit() {
            String text = pending.toString(StandardCharsets.UTF_8);
            pending.reset();
            // What the listener prints goes out as this JVM's own, not back into the rank's lines.
            Rank writer = CURRENT.get();
            CURRENT.remove();
            try {
                listener.line(rank, stderr, text.endsWith("\r") ? text.substring(0, text.length() - 1) : text);
            } finally {
                CURRENT.set(writer);
            }
        }
    }
}
