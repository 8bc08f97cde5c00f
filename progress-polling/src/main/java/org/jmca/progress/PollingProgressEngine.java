package org.jmca.progress;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.BooleanSupplier;
import org.agrona.concurrent.IdleStrategy;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A progress engine driven by the thread that waits, as {@code opal_progress} is: each turn runs
 * every high-priority callback, and the low-priority ones every {@code lowPriorityInterval}-th
 * turn. Between empty turns a waiting thread idles by its {@link WaitStrategy}.
 *
 * <p>The callback arrays are replaced whole on (rare) registration, so a turn reads one volatile
 * reference per priority and allocates nothing. Turns are meant for one thread at a time: with
 * asynchronous progress ({@link AsyncMode}) the application thread and the helper take turns by
 * the ownership that {@link #enter()} and {@link #exit()} hand over.
 */
public final class PollingProgressEngine implements ProgressEngine {
    private static final ProgressCallback[] NONE = new ProgressCallback[0];

    private final WaitStrategy waitStrategy;
    private final IdleStrategy idle;
    private final int lowPriorityInterval;
    private final AsyncProgress async;
    private final HelperThread.Placement helper;
    private volatile ProgressCallback[] high = NONE;
    private volatile ProgressCallback[] low = NONE;
    /** Turns left before the low-priority callbacks run again (a countdown: no division per turn). */
    private int turnsToLow;

    /**
     * @param waitStrategy        a resolved strategy (not {@link WaitStrategy#AUTO})
     * @param idle                Agrona's idle strategy implementing it
     * @param lowPriorityInterval low-priority callbacks run every this many turns
     */
    public PollingProgressEngine(WaitStrategy waitStrategy, IdleStrategy idle, int lowPriorityInterval) {
        this(waitStrategy, idle, lowPriorityInterval, AsyncMode.OFF, HelperThread.Placement.INHERITED);
    }

    /**
     * @param asyncMode who progresses while the application computes
     * @param helper    where its helper thread runs
     */
    PollingProgressEngine(WaitStrategy waitStrategy, IdleStrategy idle, int lowPriorityInterval,
                          AsyncMode asyncMode, HelperThread.Placement helper) {
        if (lowPriorityInterval < 1) {
            throw new IllegalArgumentException("lowPriorityInterval=" + lowPriorityInterval + " must be at least 1");
        }
        this.waitStrategy = Objects.requireNonNull(waitStrategy, "waitStrategy");
        this.idle = Objects.requireNonNull(idle, "idle");
        this.lowPriorityInterval = lowPriorityInterval;
        this.turnsToLow = lowPriorityInterval;
        this.helper = helper;
        this.async = switch (asyncMode) {
            case OFF -> AsyncProgress.Off.INSTANCE;
            case LOCK -> new LockBasedProgress(this::progress, helper);
            case LOCKFREE -> new LockFreeProgress(this::progress, helper);
        };
    }

    @Override
    public synchronized Registration register(ProgressCallback callback, Priority priority) {
        Objects.requireNonNull(callback, "callback");
        if (priority == Priority.HIGH) {
            high = append(high, callback);
        } else {
            low = append(low, callback);
        }
        return () -> remove(callback, priority);
    }

    private synchronized void remove(ProgressCallback callback, Priority priority) {
        if (priority == Priority.HIGH) {
            high = without(high, callback);
        } else {
            low = without(low, callback);
        }
    }

    @Override
    public int progress() {
        int events = 0;
        for (ProgressCallback callback : high) {
            events += callback.progress();
        }
        if (--turnsToLow == 0) {
            turnsToLow = lowPriorityInterval;
            for (ProgressCallback callback : low) {
                events += callback.progress();
            }
        }
        return events;
    }

    @Override
    public void waitUntil(BooleanSupplier done) {
        idle.reset();
        while (!done.getAsBoolean()) {
            idle.idle(progress());
        }
    }

    @Override
    public void enter() {
        async.enter();
    }

    @Override
    public void exit() {
        async.exit();
    }

    /** Where the helper thread runs (for tests). */
    HelperThread.Placement helperPlacement() {
        return helper;
    }

    @Override
    public boolean isAsynchronous() {
        return async != AsyncProgress.Off.INSTANCE;
    }

    @Override
    public void startAsync(AsyncSources sources) {
        async.start(sources);
    }

    @Override
    public boolean onHelperThread() {
        return async.onHelperThread();
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return async.performanceVariables();
    }

    @Override
    public String waitStrategy() {
        return waitStrategy.name().toLowerCase(Locale.ROOT);
    }

    @Override
    public synchronized void close() {
        async.stop();
        high = NONE;
        low = NONE;
    }

    private static ProgressCallback[] append(ProgressCallback[] callbacks, ProgressCallback callback) {
        ProgressCallback[] grown = Arrays.copyOf(callbacks, callbacks.length + 1);
        grown[callbacks.length] = callback;
        return grown;
    }

    private static ProgressCallback[] without(ProgressCallback[] callbacks, ProgressCallback callback) {
        return Arrays.stream(callbacks).filter(c -> c != callback).toArray(ProgressCallback[]::new);
    }
}
