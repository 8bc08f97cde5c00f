package org.jmca.common.lapi;

import org.jmca.mca.McaException;

/**
 * A LAPI error: a bad argument, an operation a target refused (an address outside the memory it
 * exposed), a task that stopped answering. Thrown by the call that finds it, or by the next call
 * of the task when the dispatcher found it.
 */
public class LapiException extends McaException {
    public LapiException(String message) {
        super(message);
    }
}
