package org.jmca.coll.base;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCall;

/**
 * Scan and exscan, numbered as Open MPI's: 1 linear, 2 recursive doubling. Both keep the ranks
 * in order, so non-commutative operations work. Exscan leaves rank 0's buffer untouched.
 */
public final class Scans {
    private Scans() {
    }

    /** Rank r receives the prefix of ranks 0..r-1 from r - 1, adds its own operand and passes it on. */
    public static void linear(Schedule s, CollCall c, boolean exclusive) {
        int rank = s.rank();
        long bytes = c.bytes(c.count());
        MemorySegment own = Reduces.own(s, c);
        MemorySegment result = c.recv().asSlice(0, bytes);
        boolean last = rank + 1 == s.size();
        if (rank == 0) {
            if (!exclusive) {
                s.copy(own, result);
            }
            if (!last) {
                s.send(own, 1);
            }
            return;
        }
        MemorySegment before = exclusive ? result : Schedule.scratch(bytes);
        s.recv(before, rank - 1).round();
        MemorySegment upToMe = exclusive ? Schedule.scratch(bytes) : result;
        if (exclusive && last) {
            return;
        }
        s.copy(own, upToMe).reduce(c.op(), before, upToMe, c.count());
        if (!last) {
            s.send(upToMe, rank + 1);
        }
    }

    /**
     * At distances 1, 2, 4... each rank sends the reduction of the 2^k ranks ending with it and
     * combines what it receives in front of its own: ceil(log2 size) steps.
     */
    public static void recursiveDoubling(Schedule s, CollCall c, boolean exclusive) {
        int rank = s.rank();
        int size = s.size();
        int count = c.count();
        long bytes = c.bytes(count);
        MemorySegment result = c.recv().asSlice(0, bytes);
        MemorySegment partial = Schedule.scratch(bytes);
        s.copy(Reduces.own(s, c), partial);
        if (!exclusive) {
            s.copy(partial, result);
        }
        MemorySegment incoming = Schedule.scratch(bytes);
        for (int d = 1; d < size; d <<= 1) {
            if (rank + d < size) {
                s.send(partial, rank + d);
            }
            if (rank - d >= 0) {
                s.recv(incoming, rank - d);
            }
            s.round();
            if (rank - d >= 0) {
                if (exclusive && d == 1) {
                    s.copy(incoming, result);
                } else {
                    s.reduce(c.op(), incoming, result, count);
                }
                s.reduce(c.op(), incoming, partial, count);
            }
        }
    }
}
