package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;

/**
 * Every rank's unicast address, sent point-to-point to every other rank, on the tag of the first
 * broadcast of the communicator. Each rank finishes it before it sends anything else of that call,
 * so the call's own messages on the same tag come after it.
 */
final class AddressExchange {
    private final long[] addresses;
    private final List<PmlRequest> requests = new ArrayList<>();

    AddressExchange(CollCommunicator communicator, long own, int tag) {
        int size = communicator.size();
        addresses = new long[size];
        addresses[communicator.rank()] = own;
        MemorySegment mine = MemorySegment.ofArray(new long[] {own});
        MemorySegment all = MemorySegment.ofArray(addresses);
        for (int r = 0; r < size; r++) {
            if (r != communicator.rank()) {
                requests.add(communicator.irecv(all.asSlice(r * 8L, 8), r, tag));
                requests.add(communicator.isend(mine, r, tag));
            }
        }
    }

    /** The addresses by rank once every message has gone and come, else null. */
    long[] result() {
        requests.removeIf(PmlRequest::isComplete);
        return requests.isEmpty() ? addresses : null;
    }
}
