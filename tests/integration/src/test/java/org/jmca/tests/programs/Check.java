package org.jmca.tests.programs;

import java.nio.ByteBuffer;

/** Assertions for MPI test programs: a failed check ends the rank with a message and status 1. */
final class Check {
    private Check() {
    }

    static void that(boolean condition, String message) {
        if (!condition) {
            throw new AssertionError(message);
        }
    }

    static void equal(long actual, long expected, String what) {
        that(actual == expected, what + ": expected " + expected + " but got " + actual);
    }

    /** An MPI call that may throw. */
    interface MpiCall {
        void run() throws mpi.MPIException;
    }

    /** {@code call} throws an MPIException of {@code errorClass} (under MPI.ERRORS_RETURN). */
    static void fails(int errorClass, MpiCall call, String what) {
        try {
            call.run();
        } catch (mpi.MPIException e) {
            equal(e.getErrorClass(), errorClass, what + " (" + e.getMessage() + ")");
            return;
        }
        throw new AssertionError(what + ": no MPIException");
    }

    /** Fills {@code buffer[0..length)} with a pattern derived from {@code seed}. */
    static void fill(ByteBuffer buffer, int length, long seed) {
        for (int i = 0; i < length; i++) {
            buffer.put(i, pattern(seed, i));
        }
    }

    static void verify(ByteBuffer buffer, int length, long seed, String what) {
        for (int i = 0; i < length; i++) {
            if (buffer.get(i) != pattern(seed, i)) {
                throw new AssertionError(what + ": byte " + i + " of " + length + " differs");
            }
        }
    }

    static byte pattern(long seed, int i) {
        long x = seed * 0x9E3779B97F4A7C15L + i * 0xBF58476D1CE4E5B9L;
        return (byte) (x ^ (x >>> 29));
    }
}
