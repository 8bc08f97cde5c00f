package org.jmca.osc;

/** A one-sided call refused, with what was wrong and the value that was. */
public final class OscException extends Exception {
    private final OscError error;

    public OscException(OscError error, String message) {
        super(message);
        this.error = error;
    }

    public OscError error() {
        return error;
    }
}
