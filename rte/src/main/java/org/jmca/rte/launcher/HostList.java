package org.jmca.rte.launcher;

import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The hosts of a job, from Open MPI's syntaxes: {@code --host h1:2,h2:2} (or {@code h1,h1,h2}:
 * a name given again adds a slot) and {@code --hostfile FILE} ({@code h1 slots=2} lines,
 * {@code #} comments; a line without {@code slots} gives one). A host named twice is one host
 * with the slots added up, in the order first named. Every error names the flag or the file and
 * line: a name the launch agent could misread ({@link Host#nameProblem}), a slot count that is
 * not a positive int, or slots that add up beyond one.
 */
final class HostList {
    private HostList() {
    }

    /** The hosts of a {@code --host} value. */
    static List<Host> parse(String spec) {
        String flag = "--host " + Host.escaped(spec);
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String item : spec.split(",", -1)) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException(flag + ": an empty host name");
            }
            int colon = entry.lastIndexOf(':');
            String name = colon < 0 ? entry : entry.substring(0, colon);
            String where = flag + ": " + Host.quoted(entry);
            checkName(name, where);
            if (name.indexOf(':') >= 0) {
                throw new IllegalArgumentException(where + ": a name with ':' is ambiguous in --host, where ':'"
                        + " gives the slots (HOST:SLOTS); name an IPv6 host in a --hostfile");
            }
            int count = colon < 0 ? 1 : slotCount(entry.substring(colon + 1), where);
            add(slots, name, count, where);
        }
        return hosts(slots);
    }

    /** The hosts of a hostfile; errors name the file and line. */
    static List<Host> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
        } catch (CharacterCodingException e) {
            throw new IllegalArgumentException("--hostfile " + file + ": cannot read it: it is not UTF-8 text");
        } catch (IOException e) {
            throw new IllegalArgumentException("--hostfile " + file + ": cannot read it: " + e.getMessage());
        }
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            int hash = line.indexOf('#');
            String[] words = (hash < 0 ? line : line.substring(0, hash)).strip().split("\\s+");
            if (words[0].isEmpty()) {
                continue;
            }
            String where = file + ":" + (i + 1);
            checkName(words[0], where);
            int count = 1;
            for (int w = 1; w < words.length; w++) {
                String[] pair = words[w].split("=", 2);
                switch (pair[0]) {
                    case "slots" -> count = slotCount(pair.length == 2 ? pair[1] : "", where + ": '" + words[w] + "'");
                    case "max_slots", "max-slots" -> slotCount(pair.length == 2 ? pair[1] : "", where + ": '" + words[w] + "'");
                    default -> throw new IllegalArgumentException(where + ": unknown " + Host.quoted(words[w])
                            + "; a line is: host [slots=N]");
                }
            }
            add(slots, words[0], count, where);
        }
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("--hostfile " + file + " names no host");
        }
        return hosts(slots);
    }

    private static void checkName(String name, String where) {
        String problem = Host.nameProblem(name);
        if (problem != null) {
            throw new IllegalArgumentException(where + ": " + (name.isEmpty() ? problem : Host.quoted(name) + ": "
                    + problem));
        }
    }

    /** Adds {@code count} slots to the host's, refusing a total beyond an int. */
    private static void add(Map<String, Integer> slots, String name, int count, String where) {
        slots.merge(name, count, (had, more) -> {
            try {
                return Math.addExact(had, more);
            } catch (ArithmeticException e) {
                throw new IllegalArgumentException(where + ": host " + Host.quoted(name) + " has " + had
                        + " slots already, and " + more + " more exceed " + Integer.MAX_VALUE + " in all");
            }
        });
    }

    private static int slotCount(String text, String where) {
        try {
            int n = Integer.parseInt(text);
            if (n >= 1) {
                return n;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new IllegalArgumentException(where + ": slots must be a positive number, not " + Host.quoted(text));
    }

    private static List<Host> hosts(Map<String, Integer> slots) {
        List<Host> hosts = new ArrayList<>();
        slots.forEach((name, count) -> hosts.add(new Host(name, count)));
        return hosts;
    }
}
