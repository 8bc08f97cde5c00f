package org.jmca.btl.lapi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.mca.PerformanceVariable;

/**
 * LAPI's own two modes, around one global lock that every call takes before it does anything.
 *
 * <p>{@code POLLING}: progress only inside calls (and at each tick). {@code INTERRUPT}: also a
 * notification thread that, woken by an arrival, tries the lock: if it gets it, it runs the
 * dispatcher until nothing is left; if a call holds it, it goes back to sleep, knowing the call
 * will dispatch. A call that finds the notification thread inside waits for the lock. Active
 * messages' completion handlers run on a completion-handler thread.
 *
 * <p>A waiting call ({@code LAPI_Waitcntr}) keeps the lock across many visits to the dispatcher,
 * releasing it now and then; a {@code LAPI_Getcntr}/{@code LAPI_Probe} loop takes it once per
 * probe, so in interrupt mode it contends with the notification thread at every arrival: the
 * study's factor of two between the two ways of waiting.
 */
final class GlobalLockMode extends DispatchMode {
    /** Visits to the dispatcher a waiting call makes before it lets others have the lock. */
    private static final int VISITS_PER_HOLD = 64;

    private final ReentrantLock lock = new ReentrantLock();
    private final boolean interrupt;
    private final LinkedBlockingQueue<Runnable> completionQueue = new LinkedBlockingQueue<>();
    private Thread completionThread;
    /** Calls that found the dispatcher taken and waited for it. */
    volatile long callWaits;
    volatile long completionsOnThread;

    GlobalLockMode(LapiTask task, LapiSettings settings, boolean interrupt) {
        super(task, settings);
        this.interrupt = interrupt;
    }

    @Override
    boolean notifies() {
        return interrupt;
    }

    private void lock() {
        if (!lock.tryLock()) {
            callWaits++;
            lock.lock();
        }
    }

    @Override
    void call() {
        lock();
        try {
            dispatcher.dispatch();
        } finally {
            lock.unlock();
        }
    }

    @Override
    void waitUntil(BooleanSupplier done) {
        int empty = 0;
        while (!done.getAsBoolean() && !task.failed()) {
            lock();
            try {
                for (int visit = 0; visit < VISITS_PER_HOLD && !done.getAsBoolean(); visit++) {
                    empty = dispatcher.dispatch() > 0 ? 0 : empty + 1;
                }
            } finally {
                lock.unlock();
            }
            if (empty > 0) {
                idle(empty);
            }
        }
    }

    @Override
    void tick() {
        lock.lock();
        try {
            tickPass();
        } finally {
            lock.unlock();
        }
    }

    @Override
    boolean serveNotification() {
        if (!lock.tryLock()) {
            declined++;
            return false;
        }
        try {
            while (dispatcher.dispatch() > 0) {
                // until nothing is left
            }
        } finally {
            lock.unlock();
        }
        return true;
    }

    @Override
    void runCompletion(Runnable completion) {
        if (interrupt) {
            completionQueue.add(completion);
        } else {
            completion.run();
        }
    }

    @Override
    void answerQueued() {
        if (interrupt) {
            wakeNotification(); // the acknowledgement goes out with the next dispatch, which the notification thread runs
        }
    }

    @Override
    void start(Dispatcher dispatcher, FutexDoorbell bell) {
        super.start(dispatcher, bell);
        if (interrupt) {
            completionThread = Thread.ofPlatform().daemon().name("lapi-completion-" + task.task())
                    .start(this::runCompletions);
        }
    }

    private void runCompletions() {
        try {
            while (true) {
                Runnable completion = completionQueue.take();
                completionsOnThread++;
                completion.run();
            }
        } catch (InterruptedException e) {
            // stopping
        }
    }

    @Override
    void stop() {
        super.stop();
        if (completionThread != null) {
            completionThread.interrupt();
            join(completionThread);
        }
    }

    @Override
    void exclusively(Runnable body) {
        lock.lock();
        try {
            body.run();
        } finally {
            lock.unlock();
        }
    }

    @Override
    List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> all = new ArrayList<>(super.performanceVariables());
        all.add(LapiBtlComponent.CALL_WAITS.readBy(() -> callWaits));
        all.add(LapiBtlComponent.COMPLETIONS_ON_THREAD.readBy(() -> completionsOnThread));
        return all;
    }
}
