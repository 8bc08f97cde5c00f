package org.jmca.btl.lapi;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.progress.Ownership;

/**
 * The study's wish, JMCA's third mode: calls queue their work without any lock and visit the
 * dispatcher only when it is free; the notification thread, woken by arrivals, makes the rest of
 * the progress. The dispatcher changes hands with one compare-and-set ({@link Ownership}, the
 * hand-off of JMCA's lock-free asynchronous progress); nobody ever blocks on it.
 *
 * <p>A call's work is never stranded: a call that finds the dispatcher taken has queued its work
 * before looking, and the holder looks at the queue again after it lets go.
 *
 * <p>A waiting call ({@code LAPI_Waitcntr}, a fence) polls the dispatcher itself, and turns
 * interrupts off meanwhile, as JMCA's asynchronous progress disarms its doorbell while the
 * application is inside the library: an arrival then costs no wake-up of a thread that could only
 * find the dispatcher busy. On leaving, the call arms the bell again, and rings it itself if
 * something arrived meanwhile.
 */
final class LockFreeMode extends DispatchMode {
    private final Ownership owner = new Ownership();
    /** Calls that found the dispatcher taken and left their work to its holder. */
    volatile long handedOver;
    /** Calls waiting inside the library, polling the dispatcher: while any is, interrupts are off. */
    private final AtomicInteger waiting = new AtomicInteger();

    LockFreeMode(LapiTask task, LapiSettings settings) {
        super(task, settings);
    }

    @Override
    boolean notifies() {
        return true;
    }

    /**
     * One visit if the dispatcher is free, and another if work was queued while we held it;
     * returns the events, or -1 if the dispatcher was taken.
     */
    private int visit(int party) {
        if (!owner.tryAcquire(party)) {
            return -1;
        }
        int events = 0;
        do {
            try {
                events += dispatcher.dispatch();
            } finally {
                owner.release();
            }
        } while (dispatcher.hasSubmissions() && owner.tryAcquire(party));
        return events;
    }

    @Override
    void call() {
        if (visit(Ownership.APPLICATION) < 0) {
            handedOver++;
        }
    }

    @Override
    void waitUntil(BooleanSupplier done) {
        if (done.getAsBoolean()) {
            return;
        }
        waiting.incrementAndGet();
        disarmNotification();
        try {
            int empty = 0;
            while (!done.getAsBoolean() && !task.failed()) {
                empty = visit(Ownership.APPLICATION) > 0 ? 0 : empty + 1;
                idle(empty);
            }
        } finally {
            if (waiting.decrementAndGet() == 0) {
                armNotification();
            }
        }
    }

    @Override
    boolean interruptsOff() {
        return waiting.get() > 0;
    }

    @Override
    void tick() {
        if (owner.tryAcquire(Ownership.HELPER)) {
            try {
                tickPass();
            } finally {
                owner.release();
            }
        }
    }

    @Override
    boolean serveNotification() {
        if (!owner.tryAcquire(Ownership.HELPER)) {
            declined++;
            return false;
        }
        while (true) {
            try {
                while (dispatcher.dispatch() > 0 && !owner.wanted()) {
                    // until nothing is left, or a call wants the dispatcher
                }
            } finally {
                owner.release();
            }
            if (!(dispatcher.hasSubmissions() || dispatcher.hasArrivals()) || !owner.tryAcquire(Ownership.HELPER)) {
                return true;
            }
        }
    }

    @Override
    void answerQueued() {
        // the dispatcher pass that ran the completion handler sends the acknowledgement
    }

    @Override
    void exclusively(Runnable body) {
        owner.acquire();
        try {
            body.run();
        } finally {
            owner.release();
        }
    }

    @Override
    List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> all = new ArrayList<>(super.performanceVariables());
        all.add(LapiBtlComponent.HANDED_OVER.readBy(() -> handedOver));
        return all;
    }
}
