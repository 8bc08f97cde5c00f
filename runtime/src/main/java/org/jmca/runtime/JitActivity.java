package org.jmca.runtime;

import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

/**
 * This JVM's JIT compiler threads as Linux's {@code /proc/self/task} shows them: whether one is
 * running or waiting for a CPU (a compile is under way or queued), and the CPU time they have
 * used. A look reads one small file per compiler thread into one buffer, so that the warm-up
 * waiting on it does not itself become work for the JIT.
 */
public final class JitActivity {
    private static final File TASKS = new File("/proc/self/task");
    /** Between two looks, ns: long against a look, short against a compile. */
    private static final long LOOK_INTERVAL_NANOS = 2_000_000;

    private final byte[] buffer = new byte[512];
    /** The {@code /proc} folders of the compiler threads (HotSpot starts and retires some as its queue grows). */
    private List<String> compilerTasks = List.of();

    private JitActivity() {
    }

    /** The compiler threads of this JVM, or null where {@code /proc} does not show them. */
    public static JitActivity open() {
        JitActivity activity = new JitActivity();
        return activity.refresh() ? activity : null;
    }

    /** Finds the compiler threads again; false if none is to be seen. */
    private boolean refresh() {
        String[] tasks = TASKS.list();
        if (tasks == null) {
            return false;
        }
        List<String> found = new ArrayList<>();
        for (String task : tasks) {
            String dir = TASKS.getPath() + "/" + task;
            int n = read(dir + "/comm");
            // HotSpot names them "C1 CompilerThreadN" and "C2 CompilerThreadN" (15 characters shown)
            if (n > 4 && buffer[0] == 'C' && (buffer[1] == '1' || buffer[1] == '2') && buffer[3] == 'C') {
                found.add(dir);
            }
        }
        compilerTasks = found;
        return !found.isEmpty();
    }

    /** The CPU time of the compiler threads alive now, ns. */
    public long cpuNanos() {
        refresh();
        long total = 0;
        for (String task : compilerTasks) {
            // schedstat: "<ns on a CPU> <ns waiting for one> <slices>"
            int n = read(task + "/schedstat");
            long value = 0;
            for (int i = 0; i < n && buffer[i] >= '0' && buffer[i] <= '9'; i++) {
                value = value * 10 + (buffer[i] - '0');
            }
            total += value;
        }
        return total;
    }

    /** Whether a compiler thread is running or runnable: compiling, or about to. */
    private boolean busy() {
        for (String task : compilerTasks) {
            // stat: "<pid> (<name>) <state> ...": the state follows the last ')'
            int n = read(task + "/stat");
            for (int i = n - 1; i > 0; i--) {
                if (buffer[i] == ')') {
                    if (i + 2 < n && buffer[i + 2] == 'R') {
                        return true;
                    }
                    break;
                }
            }
        }
        return false;
    }

    /**
     * Sleeps, leaving this thread's CPU to the compilers, until no compiler thread has been busy at
     * two looks in a row or the deadline ({@link System#nanoTime()}) has passed.
     */
    public void awaitIdle(long deadlineNanos) {
        refresh();
        int idleLooks = 0;
        while (idleLooks < 2 && System.nanoTime() - deadlineNanos < 0) {
            idleLooks = busy() ? 0 : idleLooks + 1;
            LockSupport.parkNanos(LOOK_INTERVAL_NANOS);
        }
    }

    /** Reads a small file into {@link #buffer}; its length, or 0 if it is gone (a thread that ended). */
    private int read(String path) {
        try (FileInputStream in = new FileInputStream(path)) {
            return Math.max(in.read(buffer), 0);
        } catch (IOException e) {
            return 0;
        }
    }
}
