package org.jmca.btl.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.SymbolLookup;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jmca.mca.btl.BtlEnvironment;

/**
 * What the components with an emulated device share (the software verbs device, the emulated GM
 * NIC, the emulated LAPI switch): whether the real device's library is here, and the directory
 * the emulation's files live in.
 */
public final class EmulatedDevice {
    private EmulatedDevice() {
    }

    /** True if the shared library {@code name} ("libgm.so.0") can be loaded in this process. */
    public static boolean libraryInstalled(String name) {
        try (Arena arena = Arena.ofConfined()) {
            SymbolLookup.libraryLookup(name, arena);
            return true;
        } catch (IllegalArgumentException e) {
            return false;
        }
    }

    /**
     * The directory of the job's emulated {@code device} files, made if missing: the session
     * directory the launcher removes when the job ends, else {@code /dev/shm/jmca-<job>-<device>}.
     *
     * @param what for the error: "btl/gm: the emulated GM NIC"
     */
    public static Path directory(BtlEnvironment environment, String device, String what) {
        Path dir = environment.sessionDirectory() != null ? environment.sessionDirectory()
                : Path.of("/dev/shm", "jmca-" + environment.jobId() + "-" + device);
        try {
            return Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot make the directory " + dir + ": " + e, e);
        }
    }
}
