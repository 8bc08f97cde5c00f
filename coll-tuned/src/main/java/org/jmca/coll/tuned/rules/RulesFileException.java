package org.jmca.coll.tuned.rules;

import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import org.jmca.mca.McaException;

/**
 * A rules file that cannot be used. The message starts with "file:line: " and says what was
 * expected and what was found, so the user can fix the file without reading our sources.
 */
public class RulesFileException extends McaException {

    public RulesFileException(String message) {
        super(message);
    }

    public RulesFileException(String message, Throwable cause) {
        super(message, cause);
    }

    /** An error at a line of a file: "file:line: message". */
    static RulesFileException at(Path file, int line, String message) {
        return new RulesFileException(origin(file, line) + ": " + message);
    }

    /** "file:line", the origin of rules and sections and the prefix of messages. */
    static String origin(Path file, int line) {
        return file + ":" + line;
    }

    /** "cannot read rules file X: reason". */
    static RulesFileException cannotRead(Path file, IOException e) {
        String reason = switch (e) {
            case NoSuchFileException ignored -> "no such file";
            case AccessDeniedException ignored -> "permission denied";
            default -> e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
        };
        return new RulesFileException("cannot read rules file " + file + ": " + reason, e);
    }
}
