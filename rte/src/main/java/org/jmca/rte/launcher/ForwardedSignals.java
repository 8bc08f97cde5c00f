package org.jmca.rte.launcher;

import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.util.Collection;
import java.util.List;
import java.util.function.Consumer;
import sun.misc.Signal;

/**
 * The signals jmpirun passes on to every rank of its job, wherever the rank runs: SIGUSR1 and
 * SIGUSR2, as Open MPI's mpirun does by default (its other forwarded signals stop or wake a job,
 * which jmpirun does not do). SIGINT and SIGTERM are not passed on: they stop the job.
 */
final class ForwardedSignals {
    /** Signal names as {@code kill -s} takes them. */
    static final List<String> NAMES = List.of("USR1", "USR2");

    /** kill(2), linked at the first signal forwarded: linking costs every job's start otherwise. */
    private static final class Kill {
        static final MethodHandle HANDLE = Linker.nativeLinker().downcallHandle(
                Linker.nativeLinker().defaultLookup().findOrThrow("kill"),
                FunctionDescriptor.of(ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT));
    }

    private ForwardedSignals() {
    }

    /** Calls {@code forward} with the signal's name whenever this process gets one of them. */
    static void install(Consumer<String> forward) {
        for (String name : NAMES) {
            Signal.handle(new Signal(name), signal -> forward.accept(name));
        }
    }

    /** Sends signal {@code name} (one of {@link #NAMES}) to each of {@code processes} still running. */
    static void send(Collection<Process> processes, String name) {
        if (!NAMES.contains(name)) {
            throw new IllegalArgumentException("SIG" + name + " is not a signal jmpirun forwards");
        }
        int signal = new Signal(name).getNumber();
        for (Process process : processes) {
            if (process.isAlive()) {
                kill(process.pid(), signal);
            }
        }
    }

    /** kill(2); a process that ended meanwhile (ESRCH) is not an error worth reporting. */
    private static void kill(long pid, int signal) {
        try {
            int ignored = (int) Kill.HANDLE.invokeExact((int) pid, signal);
        } catch (Throwable e) {
            throw new IllegalStateException("kill(" + pid + ", " + signal + ") failed", e);
        }
    }
}
