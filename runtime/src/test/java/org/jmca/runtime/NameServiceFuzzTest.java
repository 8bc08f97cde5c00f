package org.jmca.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.lifecycle.AfterProperty;
import net.jqwik.api.lifecycle.BeforeProperty;

/**
 * Fuzzes the name service's directory, which any process of the user may write to: entries of any
 * content, a FIFO, a link to an endless device, a huge file, a directory. Looking a service up
 * gives its text or an MPI error of class NAME naming the service; it never blocks or fills the heap.
 */
class NameServiceFuzzTest {
    private String tmpdir;
    private Path directory;

    @BeforeProperty
    void aDirectoryOfOurOwn() throws IOException {
        tmpdir = System.getProperty("java.io.tmpdir");
        Path root = Files.createTempDirectory("names");
        System.setProperty("java.io.tmpdir", root.toString()); // names() is under it, as no JMCA_NAME_SERVICE_DIR is set
        directory = DynamicProcesses.names();
        Files.createDirectories(directory);
    }

    @AfterProperty
    void back() {
        System.setProperty("java.io.tmpdir", tmpdir);
    }

    @Provide
    Arbitrary<byte[]> contents() {
        return Arbitraries.oneOf(Arbitraries.strings().ofMaxLength(200).map(t -> t.getBytes(StandardCharsets.UTF_8)),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(100));
    }

    @Property(tries = 200)
    void anEntryOfAnyBytesIsItsTextOrAnErrorNamingTheService(@ForAll("contents") byte[] content) throws IOException {
        Path entry = directory.resolve("svc");
        Files.write(entry, content);
        try {
            assertThat(DynamicProcesses.lookup("svc")).isEqualTo(new String(content, StandardCharsets.UTF_8));
        } catch (MpiError e) {
            assertThat(e.getMessage()).contains("'svc'"); // bytes that are not UTF-8
        } finally {
            Files.delete(entry);
        }
    }

    @Property(tries = 4)
    void anEntryThatIsNoSmallRegularFileIsAnErrorNamingTheService(@ForAll("oddEntries") String kind)
            throws Exception {
        Path entry = directory.resolve("odd");
        switch (kind) {
            case "fifo" -> assertThat(new ProcessBuilder("mkfifo", entry.toString()).start().waitFor()).isZero();
            case "zero" -> Files.createSymbolicLink(entry, Path.of("/dev/zero"));
            case "huge" -> {
                try (var file = new java.io.RandomAccessFile(entry.toFile(), "rw")) {
                    file.setLength(1L << 32); // sparse: 4 GiB the heap would not hold
                }
            }
            default -> Files.createDirectory(entry);
        }
        try {
            assertThatThrownBy(() -> DynamicProcesses.lookup("odd")).isInstanceOf(MpiError.class)
                    .hasMessageContaining("'odd'");
        } finally {
            Files.delete(entry);
        }
    }

    @Provide
    Arbitrary<String> oddEntries() {
        return Arbitraries.of("fifo", "zero", "huge", "directory");
    }
}
