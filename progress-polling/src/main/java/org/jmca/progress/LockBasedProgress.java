package org.jmca.progress;

import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.IntSupplier;
import org.agrona.concurrent.BackoffIdleStrategy;
import org.agrona.concurrent.IdleStrategy;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.AsyncSources;

/**
 * The baseline the lock-free design is measured against, as classic progress threads work: a
 * helper polls progress all the time under a lock, backing off (spin, yield, park up to 50 µs)
 * while nothing happens, and the application thread takes the same lock for every MPI call.
 */
final class LockBasedProgress implements AsyncProgress {
    private final ReentrantLock lock = new ReentrantLock();
    private final IntSupplier turn;
    private final HelperThread.Placement placement;
    private Thread helper;
    private volatile boolean running;
    private volatile long helperTurnsWithEvents;
    private volatile long applicationWaits;
    private final HelperFailure failure = new HelperFailure();

    LockBasedProgress(IntSupplier turn, HelperThread.Placement placement) {
        this.turn = turn;
        this.placement = placement;
    }

    @Override
    public void start(AsyncSources sources) {
        running = true;
        helper = HelperThread.start("jmca-progress-thread", placement, this::poll);
    }

    private void poll() {
        IdleStrategy idle = new BackoffIdleStrategy(100, 10, TimeUnit.MICROSECONDS.toNanos(1),
                TimeUnit.MICROSECONDS.toNanos(50));
        while (running) {
            int events;
            lock.lock();
            try {
                events = turn.getAsInt();
            } catch (RuntimeException e) {
                failure.record(e); // the application's next call reports it
                return;
            } finally {
                lock.unlock();
            }
            if (events > 0) {
                helperTurnsWithEvents++;
            }
            idle.idle(events);
        }
    }

    @Override
    public void enter() {
        if (!lock.tryLock()) {
            applicationWaits++;
            lock.lock();
        }
        if (failure.happened()) {
            lock.unlock();
            failure.rethrow();
        }
    }

    @Override
    public void exit() {
        lock.unlock();
    }

    @Override
    public boolean onHelperThread() {
        return Thread.currentThread() == helper;
    }

    @Override
    public List<PerformanceVariable> performanceVariables() {
        return List.of(PollingProgressComponent.HELPER_TURNS.readBy(() -> helperTurnsWithEvents),
                PollingProgressComponent.APPLICATION_WAITS.readBy(() -> applicationWaits));
    }

    @Override
    public void stop() {
        if (helper == null) {
            return;
        }
        running = false;
        HelperThread.join(helper);
    }
}
