package mpi;

import java.lang.foreign.MemorySegment;
import java.nio.Buffer;
import org.jmca.runtime.MpiError;
import org.jmca.runtime.UserBuffer;

/**
 * The runtime's {@link UserBuffer} as the mpi package's less frequent calls use it: a runtime
 * error as the MPIException the caller reports.
 */
final class Buffers {
    private Buffers() {
    }

    static UserBuffer of(Object buf, int count, Datatype type, boolean forReceive) throws MPIException {
        try {
            return UserBuffer.of(buf, count, Datatype.use(type), forReceive);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    static MemorySegment segment(Object buf, int count, Datatype type, boolean forReceive) throws MPIException {
        try {
            return UserBuffer.segment(buf, count, Datatype.use(type), forReceive);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    static Buffer atByte(Buffer buffer, int offset) throws MPIException {
        try {
            return UserBuffer.atByte(buffer, offset);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }

    static int elementSize(Buffer buffer) throws MPIException {
        try {
            return UserBuffer.elementSize(buffer);
        } catch (MpiError e) {
            throw new MPIException(e.errorClass(), e.getMessage());
        }
    }
}
