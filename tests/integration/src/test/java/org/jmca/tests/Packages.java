package org.jmca.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Debian packages a test needs (Open MPI, Slurm, munge): installed by the test itself with
 * apt-get when they are missing, so that a fresh machine runs the test; what cannot be
 * installed is reported as the reason to skip.
 */
final class Packages {
    private static boolean updated;

    private Packages() {
    }

    /** Installs the missing ones of {@code packages}; returns null, or why they cannot be had. */
    static synchronized String ensure(String... packages) {
        List<String> missing = new ArrayList<>();
        for (String p : packages) {
            if (!run(10, "dpkg-query", "-W", "-f=${Status}", p).output.contains("install ok installed")) {
                missing.add(p);
            }
        }
        if (missing.isEmpty()) {
            return null;
        }
        if (!"root".equals(System.getProperty("user.name"))) {
            return "the packages " + missing + " are missing and only root can install them";
        }
        if (!updated) {
            Result update = run(300, "apt-get", "update", "-q");
            if (update.exit != 0) {
                return "apt-get update failed: " + update.tail();
            }
            updated = true;
        }
        List<String> install = new ArrayList<>(List.of("apt-get", "install", "-y", "-q", "--no-install-recommends"));
        install.addAll(missing);
        Result result = run(900, install.toArray(String[]::new));
        return result.exit == 0 ? null : "apt-get install " + missing + " failed: " + result.tail();
    }

    private record Result(int exit, String output) {
        String tail() {
            String[] lines = output.strip().split("\n");
            return lines[lines.length - 1];
        }
    }

    private static Result run(int seconds, String... command) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command).redirectErrorStream(true);
            builder.environment().put("DEBIAN_FRONTEND", "noninteractive");
            Process process = builder.start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                return new Result(-1, String.join(" ", command) + " did not finish in " + seconds + " s");
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            return new Result(-1, e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return new Result(-1, "interrupted");
        }
    }
}
