package org.jmca.tune;

import java.io.PrintStream;

/**
 * A progress bar on standard error: the points done of all, and the time left at the pace so far.
 * On a terminal it redraws one line; elsewhere (a log) it writes a line every tenth of the way.
 */
final class Progress {
    private static final int WIDTH = 30;

    private final PrintStream out;
    private final int total;
    private final String note;
    private final boolean terminal = System.console() != null;
    private final long start = System.nanoTime();
    private int done;
    private int lastTenth = -1;

    Progress(PrintStream out, int total, String note) {
        this.out = out;
        this.total = total;
        this.note = note;
        draw();
    }

    synchronized void step() {
        done++;
        draw();
    }

    synchronized void finish() {
        if (terminal) {
            out.println();
        }
    }

    private void draw() {
        int tenth = total == 0 ? 10 : done * 10 / total;
        if (!terminal && tenth == lastTenth) {
            return;
        }
        lastTenth = tenth;
        int filled = total == 0 ? WIDTH : done * WIDTH / total;
        String bar = "#".repeat(filled) + "-".repeat(WIDTH - filled);
        out.print((terminal ? "\r" : "") + "[" + bar + "] " + done + "/" + total + " points" + note + ", "
                + left() + (terminal ? "   " : "\n"));
        out.flush();
    }

    /** "2m10s left", from the pace so far; "?" before the first point. */
    private String left() {
        if (done == 0) {
            return "time left unknown yet";
        }
        long seconds = (System.nanoTime() - start) / 1_000_000_000L * (total - done) / done;
        return (seconds >= 60 ? seconds / 60 + "m" : "") + seconds % 60 + "s left";
    }
}
