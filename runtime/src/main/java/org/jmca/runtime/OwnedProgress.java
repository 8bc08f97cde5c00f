package org.jmca.runtime;

import java.util.function.BooleanSupplier;
import org.jmca.mca.progress.ProgressEngine;

/**
 * The progress engine as MPI calls use it under asynchronous progress: a turn or a wait is made
 * inside the library, owning progress, so the helper thread stays out of it.
 */
final class OwnedProgress extends ProgressView {
    OwnedProgress(ProgressEngine engine) {
        super(engine);
    }

    @Override
    public int progress() {
        engine.enter();
        try {
            return engine.progress();
        } finally {
            engine.exit();
        }
    }

    @Override
    public void waitUntil(BooleanSupplier done) {
        engine.enter();
        try {
            engine.waitUntil(done);
        } finally {
            engine.exit();
        }
    }

    @Override
    public void enter() {
        engine.enter();
    }

    @Override
    public void exit() {
        engine.exit();
    }
}
