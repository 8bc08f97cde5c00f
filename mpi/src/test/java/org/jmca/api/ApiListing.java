package org.jmca.api;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.spi.ToolProvider;
import java.util.stream.Stream;
import java.util.zip.ZipFile;

/**
 * The public API of the {@code mpi} package in a jar or a classes directory, one line per type
 * and member ({@code mpi.Comm :: public void free() throws mpi.MPIException;}), as {@code javap
 * -public} prints them, sorted. Modifiers that do not change how a caller's code compiles
 * (final, native, synchronized) are left out. Used both to write Open MPI's list (from an
 * {@code mpi.jar} built from its Java sources, by {@code bench/ompi-java-api}) and to list JMCA's.
 */
public final class ApiListing {
    private ApiListing() {
    }

    /** {@code java ... org.jmca.api.ApiListing JAR_OR_DIR}: the listing on standard output. */
    public static void main(String[] args) throws IOException {
        list(Path.of(args[0])).forEach(System.out::println);
    }

    public static List<String> list(Path jarOrDirectory) throws IOException {
        List<String> classes = new ArrayList<>();
        if (Files.isDirectory(jarOrDirectory)) {
            try (Stream<Path> files = Files.list(jarOrDirectory.resolve("mpi"))) {
                files.map(f -> f.getFileName().toString()).filter(n -> n.endsWith(".class"))
                        .forEach(n -> classes.add("mpi." + n.substring(0, n.length() - ".class".length())));
            }
        } else {
            try (ZipFile jar = new ZipFile(jarOrDirectory.toFile())) {
                jar.stream().map(e -> e.getName()).filter(n -> n.matches("mpi/[^/]+\\.class"))
                        .forEach(n -> classes.add(n.substring(0, n.length() - ".class".length()).replace('/', '.')));
            }
        }
        ToolProvider javap = ToolProvider.findFirst("javap")
                .orElseThrow(() -> new IllegalStateException("no javap in this JDK"));
        TreeSet<String> lines = new TreeSet<>();
        for (String type : classes) {
            StringWriter out = new StringWriter();
            StringWriter err = new StringWriter();
            int status = javap.run(new PrintWriter(out), new PrintWriter(err), "-public", "-cp",
                    jarOrDirectory.toString(), type);
            if (status != 0) {
                throw new IllegalStateException("javap " + type + " failed: " + err);
            }
            lines.addAll(members(type, out.toString()));
        }
        return List.copyOf(lines);
    }

    /** The lines of one public type; none for a type that is not public (javap prints their headers too). */
    private static List<String> members(String type, String javap) {
        List<String> lines = new ArrayList<>();
        for (String line : javap.lines().toList()) {
            if (line.startsWith("Compiled from") || line.equals("}") || line.isBlank()) {
                continue;
            }
            if (!line.startsWith(" ")) {
                if (!line.startsWith("public ")) {
                    return List.of();
                }
                line = line.replaceFirst(" *\\{$", "");
            }
            lines.add(type + " :: " + line.strip().replaceAll("\\b(final|native|synchronized) ", ""));
        }
        return lines;
    }
}
