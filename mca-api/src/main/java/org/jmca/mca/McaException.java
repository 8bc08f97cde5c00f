package org.jmca.mca;

/** A configuration or selection error, with a message meant for the user who can fix it. */
public class McaException extends RuntimeException {
    public McaException(String message) {
        super(message);
    }

    public McaException(String message, Throwable cause) {
        super(message, cause);
    }
}
