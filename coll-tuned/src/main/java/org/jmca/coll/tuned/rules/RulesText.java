package org.jmca.coll.tuned.rules;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Reads a rules file whole; both formats are small, and both readers need line numbers. */
final class RulesText {
    private RulesText() {
    }

    static String read(Path file) {
        if (Files.isDirectory(file)) {
            throw new RulesFileException("cannot read rules file " + file + ": it is a directory");
        }
        try {
            // new String(...) replaces malformed bytes: a stray byte in a comment must not stop us
            return new String(Files.readAllBytes(file), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw RulesFileException.cannotRead(file, e);
        }
    }
}
