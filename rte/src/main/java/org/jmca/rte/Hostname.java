package org.jmca.rte;

import java.io.IOException;
import java.net.InetAddress;
import java.nio.file.Files;
import java.nio.file.Path;

/** This host's name, read without a DNS lookup where the kernel tells it. */
public final class Hostname {
    private Hostname() {
    }

    public static String local() {
        try {
            Path kernel = Path.of("/proc/sys/kernel/hostname");
            if (Files.isReadable(kernel)) {
                return Files.readString(kernel).strip();
            }
            return InetAddress.getLocalHost().getHostName();
        } catch (IOException e) {
            return "localhost";
        }
    }
}
