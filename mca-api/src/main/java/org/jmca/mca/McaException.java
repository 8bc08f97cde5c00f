package org.jmca.mca;

/**
 * An error of the component layer, with a message meant for the user: a configuration or
 * selection that cannot work, or a transport that failed (a peer gone, a device call refused).
 */
public class McaException extends RuntimeException {
    public McaException(String message) {
        super(message);
    }

    public McaException(String message, Throwable cause) {
        super(message, cause);
    }
}
