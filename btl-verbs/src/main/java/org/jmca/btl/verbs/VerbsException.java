package org.jmca.btl.verbs;

/** A verb refused its arguments, as the C call would return an errno: the message says which and why. */
public final class VerbsException extends RuntimeException {
    public VerbsException(String message) {
        super(message);
    }
}
