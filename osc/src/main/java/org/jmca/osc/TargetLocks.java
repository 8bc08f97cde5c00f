package org.jmca.osc;

import java.util.ArrayDeque;
import java.util.function.IntConsumer;

/**
 * The lock of one rank's window, as its target keeps it: one exclusive holder or any number of
 * shared holders; requests that cannot be granted wait and are granted in the order they came.
 */
final class TargetLocks {
    static final int EXCLUSIVE = 1;
    static final int SHARED = 2;

    private final IntConsumer grant;
    private final ArrayDeque<int[]> waiting = new ArrayDeque<>();
    private int exclusive = -1;
    private int shared;

    /** @param grant told the origin whose lock is granted */
    TargetLocks(IntConsumer grant) {
        this.grant = grant;
    }

    void request(int origin, int type) {
        if (waiting.isEmpty() && grantable(type)) {
            take(origin, type);
        } else {
            waiting.add(new int[] {origin, type});
        }
    }

    void release(int origin) {
        if (exclusive == origin) {
            exclusive = -1;
        } else if (shared > 0) {
            shared--;
        }
        while (!waiting.isEmpty() && grantable(waiting.peekFirst()[1])) {
            int[] next = waiting.pollFirst();
            take(next[0], next[1]);
        }
    }

    private boolean grantable(int type) {
        return exclusive < 0 && (type == SHARED || shared == 0);
    }

    private void take(int origin, int type) {
        if (type == EXCLUSIVE) {
            exclusive = origin;
        } else {
            shared++;
        }
        grant.accept(origin);
    }
}
