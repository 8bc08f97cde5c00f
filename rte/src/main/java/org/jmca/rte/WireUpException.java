package org.jmca.rte;

/** Wire-up failed: the launcher is gone, refused this process, or the exchange timed out. */
public final class WireUpException extends RuntimeException {
    public WireUpException(String message) {
        super(message);
    }

    public WireUpException(String message, Throwable cause) {
        super(message, cause);
    }
}
