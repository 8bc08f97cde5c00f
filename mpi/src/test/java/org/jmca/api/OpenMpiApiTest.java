package org.jmca.api;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import mpi.MPI;
import org.junit.jupiter.api.Test;

/**
 * Programs written for Open MPI's Java bindings compile against JMCA's {@code mpi} package:
 * every public type and member of Open MPI 4.1's bindings ({@code api/openmpi-4.1.txt}, written
 * by {@code bench/ompi-java-api}) is JMCA's too, with the same signature, and JMCA has no public
 * API of its own beyond it, unless {@code api/differences.txt} lists the difference with its
 * reason. A listed difference that is gone must leave the list too, so the list says what is
 * still missing.
 */
class OpenMpiApiTest {

    /** A line of the differences file: "- LINE -- why" (missing here) or "+ LINE -- why" (only here); "mpi.X :: *" is the whole type. */
    private record Difference(boolean missing, String pattern, String reason) {
        boolean matches(String line) {
            return pattern.endsWith(" :: *") ? line.startsWith(pattern.substring(0, pattern.length() - 1))
                    : line.equals(pattern);
        }
    }

    private static List<String> resource(String name) throws IOException {
        try (InputStream in = OpenMpiApiTest.class.getResourceAsStream("/api/" + name)) {
            assertThat(in).as("test resource api/%s", name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).lines().toList();
        }
    }

    private static List<Difference> differences() throws IOException {
        List<Difference> all = new ArrayList<>();
        int number = 0;
        for (String line : resource("differences.txt")) {
            number++;
            if (line.isBlank() || line.startsWith("#")) {
                continue;
            }
            int why = line.indexOf(" -- ");
            assertThat(line).as("api/differences.txt line %d: '+ LINE -- reason' or '- LINE -- reason'", number)
                    .matches("[-+] .+ -- .*\\S.*");
            all.add(new Difference(line.charAt(0) == '-', line.substring(2, why), line.substring(why + 4)));
        }
        return all;
    }

    @Test
    void everyDifferenceFromOpenMpisJavaBindingsIsListedWithItsReason() throws IOException, URISyntaxException {
        TreeSet<String> openMpi = withoutRedeclarations(resource("openmpi-4.1.txt"));
        Path classes = Path.of(MPI.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        TreeSet<String> jmca = withoutRedeclarations(ApiListing.list(classes));
        List<Difference> listed = differences();
        Map<Difference, Integer> used = new LinkedHashMap<>();
        listed.forEach(d -> used.put(d, 0));

        List<String> unlisted = new ArrayList<>();
        for (String line : openMpi) {
            if (!jmca.contains(line)) {
                check(line, true, listed, used, unlisted);
            }
        }
        for (String line : jmca) {
            if (!openMpi.contains(line)) {
                check(line, false, listed, used, unlisted);
            }
        }
        assertThat(unlisted).as("differences from Open MPI 4.1's Java API that api/differences.txt does not list"
                + " (- missing in JMCA, + only in JMCA)").isEmpty();
        assertThat(used.entrySet().stream().filter(e -> e.getValue() == 0).map(e -> e.getKey().pattern()).toList())
                .as("entries of api/differences.txt that are no longer differences (remove them)").isEmpty();
    }

    /**
     * The listing without the members a class declares again with its superclass's very
     * signature (an override, such as Intercomm's collectives): callers see the same API.
     */
    private static final Pattern CLASS_HEADER = Pattern.compile("(\\S+) :: .*class \\S+ extends (mpi\\.\\S+).*");

    static TreeSet<String> withoutRedeclarations(List<String> lines) {
        Map<String, String> superclass = new HashMap<>();
        Set<String> all = new HashSet<>(lines);
        for (String line : lines) {
            Matcher header = CLASS_HEADER.matcher(line);
            if (header.matches()) {
                superclass.put(header.group(1), header.group(2));
            }
        }
        TreeSet<String> kept = new TreeSet<>();
        for (String line : lines) {
            String type = line.substring(0, line.indexOf(" :: "));
            String member = line.substring(line.indexOf(" :: "));
            boolean inherited = false;
            for (String s = superclass.get(type); s != null && !inherited; s = superclass.get(s)) {
                inherited = all.contains(s + member);
            }
            if (!inherited) {
                kept.add(line);
            }
        }
        return kept;
    }

    private static void check(String line, boolean missing, List<Difference> listed, Map<Difference, Integer> used,
                              List<String> unlisted) {
        for (Difference d : listed) {
            if (d.missing() == missing && d.matches(line)) {
                used.merge(d, 1, Integer::sum);
                return;
            }
        }
        unlisted.add((missing ? "- " : "+ ") + line);
    }
}
