package org.jmca.runtime;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The attribute keys one kind of object hands out (createKeyval) and takes back (freeKeyval). */
public final class Keyvals {
    private final String kind;
    private final Set<Integer> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger next;

    /** Keys of {@code kind} ("Comm", "Datatype") numbered from {@code first}, above the predefined ones. */
    public Keyvals(String kind, int first) {
        this.kind = kind;
        this.next = new AtomicInteger(first);
    }

    public int create() {
        int keyval = next.getAndIncrement();
        live.add(keyval);
        return keyval;
    }

    /** Frees {@code keyval}, which this kind made and did not free yet (else MPI_ERR_KEYVAL); returns it. */
    public int free(int keyval) {
        if (!live.remove(keyval)) {
            throw unknown(keyval);
        }
        return keyval;
    }

    public boolean contains(int keyval) {
        return live.contains(keyval);
    }

    /** {@code keyval} if this kind made it and it is not freed, else MPI_ERR_KEYVAL. */
    public int check(int keyval) {
        if (!live.contains(keyval)) {
            throw unknown(keyval);
        }
        return keyval;
    }

    private MpiError unknown(int keyval) {
        return new MpiError(ErrorClass.KEYVAL, "keyval " + keyval + " was not made by " + kind
                + ".createKeyval, or is freed");
    }
}
