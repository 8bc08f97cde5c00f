package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;

/**
 * Something the dispatcher sends to one task: an operation a call started (put, get, active
 * message, read-modify-write), which then waits at the origin for its acknowledgement or reply,
 * or an answer the dispatcher owes another task (get data, acknowledgement, read-modify-write
 * reply).
 *
 * <p>Made by the calling thread, then owned by the dispatcher: only the thread that holds the
 * dispatcher touches {@link #sent} and the packets.
 */
final class Operation {
    final byte kind;
    final int target;
    final long id;
    /** The words of the first packet's header (see {@link Packet}). */
    final long a;
    final long b;
    final long c;
    final long flags;
    /** The data to send (put, active message, get reply), or null. */
    final MemorySegment data;
    /** An active message's user header (a copy), or null. */
    final MemorySegment userHeader;
    /** Incremented here once the data has been packetized (put, active message), or once the previous value arrived (rmw). */
    final TaskCounter originCounter;
    /** Incremented here once the operation is complete (put, active message: acknowledged; get: the data arrived). */
    final TaskCounter completionCounter;
    /** Where a get's data or a read-modify-write's previous value goes, or null. */
    final MemorySegment destination;
    /** A get reply's target counter, at the task that sends the reply: incremented once the data is packetized. */
    final TaskCounter readCounter;
    /** When the call was made, for the dispatcher's timeout. */
    final long issuedNanos;
    /** Bytes of {@link #data} packetized so far. */
    long sent;

    private Operation(byte kind, int target, long id, long a, long b, long c, long flags, MemorySegment data,
                      MemorySegment userHeader, TaskCounter originCounter, TaskCounter completionCounter,
                      MemorySegment destination, TaskCounter readCounter) {
        this.kind = kind;
        this.target = target;
        this.id = id;
        this.a = a;
        this.b = b;
        this.c = c;
        this.flags = flags;
        this.data = data;
        this.userHeader = userHeader;
        this.originCounter = originCounter;
        this.completionCounter = completionCounter;
        this.destination = destination;
        this.readCounter = readCounter;
        this.issuedNanos = System.nanoTime();
    }

    static Operation put(int target, long id, long targetAddress, MemorySegment data, long targetCounter,
                         TaskCounter originCounter, TaskCounter completionCounter) {
        return new Operation(Packet.PUT, target, id, targetAddress, targetCounter, 0, 0, data, null, originCounter,
                completionCounter, null, null);
    }

    static Operation get(int target, long id, long targetAddress, MemorySegment into, long targetCounter,
                         TaskCounter completionCounter) {
        return new Operation(Packet.GET, target, id, targetAddress, into.byteSize(), targetCounter, 0, null, null, null,
                completionCounter, into, null);
    }

    static Operation amsend(int target, long id, int handler, MemorySegment userHeader, MemorySegment data,
                            long targetCounter, TaskCounter originCounter, TaskCounter completionCounter) {
        return new Operation(Packet.AM, target, id, handler, data.byteSize(), targetCounter,
                Packet.userHeaderFlags((int) userHeader.byteSize()), data, userHeader, originCounter, completionCounter,
                null, null);
    }

    static Operation rmw(int target, long id, int op, long targetAddress, long operand, long comparand,
                         MemorySegment previous, TaskCounter originCounter) {
        return new Operation(Packet.RMW, target, id, targetAddress, operand, comparand, Packet.rmwFlags(op), null, null,
                originCounter, null, previous, null);
    }

    /** The data of get {@code id} going back to {@code origin} (null data when {@code status} is an error). */
    static Operation getReply(int origin, long id, MemorySegment data, long status, TaskCounter readCounter) {
        return new Operation(Packet.GET_REPLY, origin, id, 0, 0, status, 0, data, null, null, null, null, readCounter);
    }

    static Operation ack(int origin, long id, long status) {
        return new Operation(Packet.ACK, origin, id, 0, 0, status, 0, null, null, null, null, null, null);
    }

    static Operation rmwReply(int origin, long id, long previous, long status) {
        return new Operation(Packet.RMW_REPLY, origin, id, previous, 0, status, 0, null, null, null, null, null, null);
    }

    /** True if the origin waits for an acknowledgement or reply before the operation is complete. */
    boolean awaitsAnswer() {
        return kind == Packet.PUT || kind == Packet.AM || kind == Packet.GET || kind == Packet.RMW;
    }

    /** Bytes the operation moves, for messages. */
    long bytes() {
        return kind == Packet.GET ? b : data == null ? 8 : data.byteSize();
    }

    @Override
    public String toString() {
        return Packet.kindName(kind) + " #" + id + " to task " + target + " (" + bytes() + " bytes)";
    }
}
