package org.jmca.btl.base;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jmca.mca.btl.BtlEnvironment;

/**
 * What the components with an emulated device share (the software verbs device, the emulated GM
 * NIC, the emulated LAPI switch): whether the real device's library is here, and the directory
 * the emulation's files live in.
 */
public final class EmulatedDevice {
    /** Where the dynamic linker looks after LD_LIBRARY_PATH and its cache. */
    private static final String[] DEFAULT_LIBRARY_DIRECTORIES = {"/lib", "/usr/lib", "/lib64", "/usr/lib64"};

    private EmulatedDevice() {
    }

    /**
     * True if the dynamic linker would find the shared library {@code name} ("libgm.so.0"): in a
     * directory of {@code LD_LIBRARY_PATH}, in its cache ({@code /etc/ld.so.cache}) or in a default
     * directory. Files are looked at rather than the library loaded: every rank asks at start, to
     * say why a device is declined, and a {@code dlopen} through FFM costs a start milliseconds of
     * method-handle classes made at run time.
     */
    public static boolean libraryInstalled(String name) {
        String path = System.getenv("LD_LIBRARY_PATH");
        if (path != null) {
            for (String dir : path.split(":")) {
                if (!dir.isEmpty() && Files.exists(Path.of(dir, name))) {
                    return true;
                }
            }
        }
        for (String dir : DEFAULT_LIBRARY_DIRECTORIES) {
            if (Files.exists(Path.of(dir, name))) {
                return true;
            }
        }
        try {
            // as Latin-1 text, so that the search is String.indexOf, which the JIT compiled long before
            String cache = new String(Files.readAllBytes(Path.of("/etc/ld.so.cache")), StandardCharsets.ISO_8859_1);
            return cache.contains("/" + name + "\0");
        } catch (IOException e) {
            return false;
        }
    }

    /**
     * The directory of the job's emulated {@code device} files, made if missing: the session
     * directory the launcher removes when the job ends, else {@code /dev/shm/jmca-<job>-<device>},
     * which the job's last rank to exit removes.
     *
     * @param what for the error: "btl/gm: the emulated GM NIC"
     */
    public static Path directory(BtlEnvironment environment, String device, String what) {
        if (environment.sessionDirectory() != null) {
            return environment.sessionDirectory();
        }
        Path dir = Path.of("/dev/shm", "jmca-" + environment.jobId() + "-" + device);
        try {
            Files.createDirectories(dir);
        } catch (IOException e) {
            throw new UncheckedIOException(what + ": cannot make the directory " + dir + ": " + e, e);
        }
        // No launcher removes it (mpirun, srun): each rank tries as it exits, after its port file
        // went; the last one out finds it empty.
        Runtime.getRuntime().addShutdownHook(new Thread(() -> removeIfEmpty(dir), "jmca-" + device + "-directory"));
        return dir;
    }

    private static void removeIfEmpty(Path dir) {
        try {
            Files.deleteIfExists(dir);
        } catch (IOException e) {
            // another rank's files are still there (it removes the directory), or it is gone already
        }
    }
}
