package org.jmca.common.gm;

/** A GM call used against its rules (no token, unregistered memory, a wrong size): GM's fatal errors. */
public final class GmException extends RuntimeException {
    public GmException(String message) {
        super(message);
    }
}
