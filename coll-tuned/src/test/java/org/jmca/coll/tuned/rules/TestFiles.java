package org.jmca.coll.tuned.rules;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Rules files for tests: the shipped examples, and small files written on the spot. */
final class TestFiles {
    private TestFiles() {
    }

    /** A file of src/test/resources/rules. */
    static Path resource(String name) {
        try {
            return Path.of(TestFiles.class.getResource("/rules/" + name).toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    static Path write(Path dir, String name, String text) {
        try {
            return Files.writeString(dir.resolve(name), text);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
