package org.jmca.coll.gm;

import java.lang.foreign.MemorySegment;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.pml.PmlRequest;

/** What a coll/gm module needs of its communicator in a test, beyond coll/gm's own messages: names. */
record Names(int rank, int size) implements CollCommunicator {
    @Override
    public String name() {
        return "test communicator";
    }

    @Override
    public PmlRequest isend(MemorySegment data, int dest, int tag) {
        throw new AssertionError("coll/gm never sends through the PML");
    }

    @Override
    public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
        throw new AssertionError("coll/gm never receives through the PML");
    }
}
