package org.jmca.coll.gm;

import org.jmca.mca.coll.CollRequest;

/**
 * One collective call in flight on the GM port: each test moves the port on, then the call's
 * algorithm; the call's channel closes when it completes.
 */
final class GmCall implements CollRequest {
    private final GmEngine engine;
    private final CallChannel channel;
    private final CollRequest body;
    private boolean done;

    GmCall(GmEngine engine, CallChannel channel, CollRequest body) {
        this.engine = engine;
        this.channel = channel;
        this.body = body;
    }

    @Override
    public boolean test() {
        synchronized (engine) {
            if (!done) {
                engine.progress();
                if (body.test()) {
                    engine.close(channel);
                    done = true;
                }
            }
            return done;
        }
    }
}
