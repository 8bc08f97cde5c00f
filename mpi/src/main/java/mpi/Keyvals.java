package mpi;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/** The attribute keys one kind of object hands out (createKeyval) and takes back (freeKeyval). */
final class Keyvals {
    private final String kind;
    private final Set<Integer> live = ConcurrentHashMap.newKeySet();
    private final AtomicInteger next;

    /** Keys of {@code kind} ("Comm", "Datatype") numbered from {@code first}, above the predefined ones. */
    Keyvals(String kind, int first) {
        this.kind = kind;
        this.next = new AtomicInteger(first);
    }

    int create() {
        int keyval = next.getAndIncrement();
        live.add(keyval);
        return keyval;
    }

    void free(int keyval) throws MPIException {
        if (!live.remove(keyval)) {
            throw unknown(keyval);
        }
    }

    boolean contains(int keyval) {
        return live.contains(keyval);
    }

    /** {@code keyval} if this kind made it and it is not freed, else MPI_ERR_KEYVAL. */
    int check(int keyval) throws MPIException {
        if (!live.contains(keyval)) {
            throw unknown(keyval);
        }
        return keyval;
    }

    private MPIException unknown(int keyval) {
        return new MPIException(MPI.ERR_KEYVAL, "keyval " + keyval + " was not made by " + kind
                + ".createKeyval, or is freed");
    }
}
