package org.jmca.config.info;

import java.util.List;

/**
 * Lines that a module above this one adds to {@code jmca-info}'s report (the launch layer: which
 * wire-up a process would use and why), found with {@link java.util.ServiceLoader}.
 */
public interface InfoSection {

    /** The lines, each printed as is after the frameworks. */
    List<String> lines();
}
