package org.jmca.coll.mcast;

import java.nio.ByteBuffer;
import java.util.SplittableRandom;

/**
 * Loss, duplication and reordering of received datagrams, seeded, so the reliability schemes can
 * be tested and compared ({@code coll_mcast_drop_rate}, {@code coll_mcast_dup_rate},
 * {@code coll_mcast_reorder_rate}, {@code coll_mcast_fault_seed}).
 */
final class FaultInjection {

    /** Chances per datagram; all 0 injects nothing. */
    record Rates(double drop, double duplicate, double reorder, long seed) {
        static final Rates NONE = new Rates(0, 0, 0, 0);

        boolean none() {
            return drop == 0 && duplicate == 0 && reorder == 0;
        }
    }

    private final Rates rates;
    private final SplittableRandom random;
    private final ByteBuffer held = ByteBuffer.allocate(Packet.MAX_DATAGRAM);
    private final ByteBuffer copy = ByteBuffer.allocate(Packet.MAX_DATAGRAM);
    private boolean holding;
    private boolean copyPending;
    long dropped;
    long duplicated;
    long reordered;

    /** Injection at one process: {@code stream} (its rank) makes each process's choices its own. */
    FaultInjection(Rates rates, long stream) {
        this.rates = rates;
        this.random = new SplittableRandom(rates.seed() * 0x9E3779B97F4A7C15L + stream);
    }

    /** The next datagram as the injected faults let it through, into {@code into}; false if none. */
    boolean receive(Carrier carrier, ByteBuffer into) {
        if (rates.none()) {
            return carrier.receive(into);
        }
        if (copyPending) {
            copyPending = false;
            return take(copy, into);
        }
        while (carrier.receive(into)) {
            if (random.nextDouble() < rates.drop()) {
                dropped++;
                continue;
            }
            if (!holding && random.nextDouble() < rates.reorder()) {
                put(into, held);
                holding = true;
                reordered++;
                continue;
            }
            if (random.nextDouble() < rates.duplicate()) {
                put(into, copy);
                copyPending = true;
                duplicated++;
            }
            return true;
        }
        if (holding) {
            holding = false;
            return take(held, into);
        }
        return false;
    }

    private static void put(ByteBuffer from, ByteBuffer to) {
        to.clear();
        to.put(from.duplicate()).flip();
    }

    private static boolean take(ByteBuffer from, ByteBuffer into) {
        into.clear();
        into.put(from.duplicate()).flip();
        return true;
    }
}
