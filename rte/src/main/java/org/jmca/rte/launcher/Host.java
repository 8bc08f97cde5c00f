package org.jmca.rte.launcher;

/**
 * A host the job may run on, as {@code --host} or {@code --hostfile} name it.
 *
 * @param name  how the launch agent reaches it ({@code ssh NAME}, {@code ip netns exec NAME}), and
 *              the name its ranks report as their host
 * @param slots ranks it takes before it counts as oversubscribed
 */
record Host(String name, int slots) {
    Host {
        if (name.isBlank() || slots < 1) {
            throw new IllegalArgumentException("a host needs a name and at least one slot: '" + name + "' " + slots);
        }
    }
}
