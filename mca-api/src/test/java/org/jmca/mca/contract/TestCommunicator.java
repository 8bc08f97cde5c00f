package org.jmca.mca.contract;

import java.lang.foreign.MemorySegment;
import java.util.Map;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;

/**
 * A communicator for tests of a component's query and selection: rank 0 of {@code size}, with a
 * name, info hints, and whether it is an intercommunicator. It carries no messages.
 */
public record TestCommunicator(String name, int size, boolean isInter, Map<String, String> hints)
        implements CollCommunicator {

    /** An intracommunicator of {@code size} ranks with these info hints. */
    public static TestCommunicator of(String name, int size, Map<String, String> hints) {
        return new TestCommunicator(name, size, false, hints);
    }

    @Override
    public int rank() {
        return 0;
    }

    @Override
    public String hint(String key) {
        return hints.get(key);
    }

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int tag) {
        throw new AssertionError("a test communicator carries no messages");
    }

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
        throw new AssertionError("a test communicator carries no messages");
    }
}
