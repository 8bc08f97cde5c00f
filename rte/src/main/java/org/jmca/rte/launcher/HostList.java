package org.jmca.rte.launcher;

import java.io.IOException;
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
 * with the slots added up, in the order first named.
 */
final class HostList {
    private HostList() {
    }

    /** The hosts of a {@code --host} value. */
    static List<Host> parse(String spec) {
        Map<String, Integer> slots = new LinkedHashMap<>();
        for (String item : spec.split(",")) {
            String entry = item.strip();
            if (entry.isEmpty()) {
                throw new IllegalArgumentException("--host " + spec + ": an empty host name");
            }
            int colon = entry.lastIndexOf(':');
            String name = colon < 0 ? entry : entry.substring(0, colon);
            int count = colon < 0 ? 1 : slotCount(entry.substring(colon + 1), "--host " + spec + ": '" + entry + "'");
            slots.merge(name, count, Integer::sum);
        }
        return hosts(slots);
    }

    /** The hosts of a hostfile; errors name the file and line. */
    static List<Host> read(Path file) {
        List<String> lines;
        try {
            lines = Files.readAllLines(file);
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
            int count = 1;
            for (int w = 1; w < words.length; w++) {
                String[] pair = words[w].split("=", 2);
                switch (pair[0]) {
                    case "slots" -> count = slotCount(pair.length == 2 ? pair[1] : "", where + ": '" + words[w] + "'");
                    case "max_slots", "max-slots" -> slotCount(pair.length == 2 ? pair[1] : "", where + ": '" + words[w] + "'");
                    default -> throw new IllegalArgumentException(where + ": unknown '" + words[w]
                            + "'; a line is: host [slots=N]");
                }
            }
            slots.merge(words[0], count, Integer::sum);
        }
        if (slots.isEmpty()) {
            throw new IllegalArgumentException("--hostfile " + file + " names no host");
        }
        return hosts(slots);
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
        throw new IllegalArgumentException(where + ": slots must be a positive number, not '" + text + "'");
    }

    private static List<Host> hosts(Map<String, Integer> slots) {
        List<Host> hosts = new ArrayList<>();
        slots.forEach((name, count) -> hosts.add(new Host(name, count)));
        return hosts;
    }
}
