package org.jmca.mca.param;

import org.jmca.mca.McaException;

/** A parameter that cannot be registered, read or set; the message names it and its source. */
public final class ParameterException extends McaException {
    public ParameterException(String message) {
        super(message);
    }

    public ParameterException(String message, Throwable cause) {
        super(message, cause);
    }
}
