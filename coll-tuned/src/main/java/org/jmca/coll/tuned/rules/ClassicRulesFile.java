package org.jmca.coll.tuned.rules;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;

/**
 * Reads Open MPI's classic rules format (coll_tuned_dynamic_file.c), a stream of numbers:
 *
 * <pre>
 * [rule-file-version-2]
 * number-of-collectives
 *   collective-id
 *   number-of-communicator-sizes
 *     communicator-size
 *     number-of-message-sizes
 *       message-size algorithm fan-in/out segment-size [max-requests, version 2 only]
 * </pre>
 *
 * <p>As in Open MPI: the version marker counts only at the very start of the file; the max
 * requests field is read only when a digit follows the segment size on the same line; the first
 * rule of every section must be for message size 0; a collective id may be any below
 * {@link Collective#COUNT}. Open MPI's lookup takes the last section whose communicator size is
 * at or below the communicator's (the first section when none is), and in it the last rule whose
 * message size is at or below the message's; {@link ClassicRanges} turns that into ranges.
 *
 * <p>Unlike Open MPI, which skips what it cannot read and ignores the whole file on a problem,
 * every problem is an error naming the line. Open MPI does not require ascending sizes, but its
 * search stops at the first larger one, so a smaller size after a larger one is unreachable
 * there; we refuse descending or repeated sizes rather than read such a file differently.
 * Open MPI silently lets a repeated collective id replace the earlier block, and ignores
 * anything after the announced collectives; both are errors here.
 */
public final class ClassicRulesFile {

    /** The marker that opens a version-2 file. */
    static final String VERSION_MARKER = "rule-file-version-";

    private final Path file;
    private final List<ClassicToken> tokens;
    private final int lastLine;
    private final boolean startsWithMarker;
    private int next;
    private int version = 1;
    /** A version-1 rule line with a fifth number: the likely cause of a later error. */
    private boolean fifthFieldInVersion1;

    private ClassicRulesFile(Path file, String text) {
        this.file = file;
        this.tokens = ClassicTokenizer.tokens(text);
        this.lastLine = ClassicTokenizer.lastLine(text);
        this.startsWithMarker = text.startsWith(VERSION_MARKER);
    }

    public static RulesTable read(Path file) {
        return parse(file, RulesText.read(file));
    }

    static RulesTable parse(Path file, String text) {
        return new ClassicRulesFile(file, text).table();
    }

    private RulesTable table() {
        readVersion();
        long count = number(take(() -> "the file has no rules: expected the number of collectives"),
                "the number of collectives", 0, Collective.COUNT, "");
        Map<Collective, List<Section>> table = new LinkedHashMap<>();
        Map<Collective, Integer> lineOf = new HashMap<>();
        for (int k = 0; k < count; k++) {
            int read = k;
            ClassicToken idToken = take(() -> "the file ends but it announced " + count + " collectives and has "
                    + read);
            Collective collective = Collective.byId((int) number(idToken, "the id of collective " + (k + 1) + " of "
                    + count, 0, Collective.COUNT - 1, "(" + Collective.idList() + ")")).orElseThrow();
            if (lineOf.containsKey(collective)) {
                throw error(idToken, collective.label() + " has rules already at line " + lineOf.get(collective)
                        + "; Open MPI would silently use only the later block: merge the two");
            }
            lineOf.put(collective, idToken.line());
            table.put(collective, sections(collective));
        }
        if (next < tokens.size()) {
            throw error(tokens.get(next), "expected the end of the file after the " + count
                    + " collectives it announced, found '" + ClassicNumber.quoted(tokens.get(next).text()) + "'");
        }
        return new RulesTable(file, table);
    }

    private void readVersion() {
        if (startsWithMarker) {
            ClassicToken marker = tokens.get(next++);
            String number = marker.text().substring(VERSION_MARKER.length());
            if (!number.equals("1") && !number.equals("2")) {
                throw error(marker, "expected rule-file-version-1 or rule-file-version-2, found '"
                        + ClassicNumber.quoted(marker.text()) + "' (Open MPI reads every version above 1 as 2)");
            }
            version = Integer.parseInt(number);
        }
        tokens.stream().skip(next).filter(t -> t.text().startsWith("rule-file-version")).findFirst()
                .ifPresent(t -> {
                    throw error(t, "'" + ClassicNumber.quoted(t.text()) + "' must be the very first thing in the file, before any"
                            + " blank or comment: Open MPI recognises it only there");
                });
    }

    private List<Section> sections(Collective collective) {
        long count = number(take(() -> "the file ends where the number of communicator-size sections of "
                + collective.label() + " belongs"), "the number of communicator-size sections of "
                + collective.label(), 0, Integer.MAX_VALUE, "");
        List<Long> commSizes = new ArrayList<>();
        List<Integer> lines = new ArrayList<>();
        List<List<Rule>> rules = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            int read = i;
            ClassicToken sizeToken = take(() -> "the file ends but " + collective.label() + " announced " + count
                    + " communicator-size sections and has " + read);
            long commSize = number(sizeToken, "the communicator size of section " + (i + 1) + " of "
                    + collective.label(), 0, Integer.MAX_VALUE, "");
            if (i > 0 && commSize <= commSizes.getLast()) {
                throw error(sizeToken, "expected a communicator size above " + commSizes.getLast()
                        + " (the section at line " + lines.getLast() + ") for section " + (i + 1) + " of "
                        + collective.label() + ", found " + commSize + ": sizes must ascend, since Open MPI"
                        + " stops at the first size above the communicator's");
            }
            commSizes.add(commSize);
            lines.add(sizeToken.line());
            rules.add(rules(collective, collective.configName() + "'s section for communicator size " + commSize,
                    collective.label() + ", communicator size " + commSize));
        }
        List<Section> sections = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            sections.add(new Section((int) ClassicRanges.lower(commSizes, i),
                    (int) ClassicRanges.upper(commSizes, i, Section.UNBOUNDED), rules.get(i),
                    RulesFileException.origin(file, lines.get(i))));
        }
        return sections;
    }

    /**
     * The rules of one section.
     *
     * @param section "allreduce's section for communicator size 8", for counts and the file's end
     * @param place   "allreduce (collective 2), communicator size 8", for the fields of a rule
     */
    private List<Rule> rules(Collective collective, String section, String place) {
        long count = number(take(() -> "the file ends where the number of message-size rules of " + section
                + " belongs"), "the number of message-size rules of " + section, 0, Integer.MAX_VALUE, "");
        List<ClassicRule> read = new ArrayList<>();
        for (int j = 0; j < count; j++) {
            int done = j;
            ClassicToken sizeToken = take(() -> "the file ends but " + section + " announced " + count
                    + " message-size rules and has " + done);
            long msgSize = number(sizeToken, "the message size of rule " + (j + 1) + " of " + section, 0,
                    Long.MAX_VALUE, "");
            if (j == 0 && msgSize != 0) {
                throw error(sizeToken, "expected message size 0 for the first rule of " + section + ", found "
                        + msgSize + ": Open MPI requires every section to start with a rule for size 0");
            }
            if (j > 0 && msgSize <= read.getLast().msgSize()) {
                throw error(sizeToken, "expected a message size above " + read.getLast().msgSize()
                        + " (the rule at line " + read.getLast().line() + ") for rule " + (j + 1) + " of " + section
                        + ", found " + msgSize + ": sizes must ascend, since Open MPI stops at the first size"
                        + " above the message's");
            }
            read.add(rule(collective, msgSize, sizeToken.line(), "message size " + msgSize + " of " + place));
        }
        List<Long> msgSizes = read.stream().map(ClassicRule::msgSize).toList();
        List<Rule> rules = new ArrayList<>();
        for (int j = 0; j < read.size(); j++) {
            ClassicRule r = read.get(j);
            rules.add(new Rule(ClassicRanges.lower(msgSizes, j), ClassicRanges.upper(msgSizes, j, Rule.UNBOUNDED),
                    r.algorithm(), r.faninout(), r.segmentSize(), r.maxRequests(),
                    RulesFileException.origin(file, r.line())));
        }
        return rules;
    }

    /** The fields after the message size; {@code rule} is "message size 1024 of allreduce ...". */
    private ClassicRule rule(Collective collective, long msgSize, int line, String rule) {
        int algorithm = (int) number(field("the algorithm for " + rule), "the algorithm for " + rule, 0,
                maxAlgorithm(collective), collective instanceof TunedCollective tuned
                        ? "(" + tuned.configName() + " has " + tuned.algorithmList() + ")" : "");
        int faninout = (int) number(field("the fan-in/out for " + rule), "the fan-in/out for " + rule, 0,
                Integer.MAX_VALUE, "");
        ClassicToken segmentToken = field("the segment size for " + rule);
        int segmentSize = (int) number(segmentToken, "the segment size for " + rule, 0, Integer.MAX_VALUE, "");
        int maxRequests = 0;
        boolean fifthField = next < tokens.size() && tokens.get(next).continuesRuleLine();
        if (version >= 2 && fifthField) {
            maxRequests = (int) number(tokens.get(next++), "the max requests for " + rule, 0, Integer.MAX_VALUE, "");
        } else if (fifthField) {
            fifthFieldInVersion1 = true;
        }
        return new ClassicRule(msgSize, algorithm, faninout, segmentSize, maxRequests, line);
    }

    private static int maxAlgorithm(Collective collective) {
        return collective instanceof TunedCollective tuned ? tuned.algorithmCount() : Integer.MAX_VALUE;
    }

    private ClassicToken field(String what) {
        return take(() -> "the file ends where " + what + " belongs");
    }

    private ClassicToken take(Supplier<String> atEnd) {
        if (next >= tokens.size()) {
            throw RulesFileException.at(file, lastLine, atEnd.get() + hint());
        }
        return tokens.get(next++);
    }

    /** The token as a number in min..max, or an error "expected WHAT: a number MIN..MAX, found ...". */
    private long number(ClassicToken token, String what, long min, long max, String choices) {
        // a limit of the storage, not of the format, is spelt out only to a number beyond it
        String expected = "a number " + (max >= Integer.MAX_VALUE ? min + " or more" : min + ".." + max);
        String suffix = choices.isEmpty() ? "" : " " + choices;
        return switch (ClassicNumber.parse(token.text())) {
            case ClassicNumber.NotANumber bad -> throw error(token, "expected " + what + ": " + expected + ", found "
                    + bad.found() + suffix + jsonHint(token));
            case ClassicNumber.Value(long value) when value > max -> throw error(token, "expected " + what
                    + ": a number " + min + ".." + max + ", found " + value + suffix);
            case ClassicNumber.Value(long value) when value < min ->
                    throw error(token, "expected " + what + ": " + expected + ", found " + value + suffix);
            case ClassicNumber.Value(long value) -> value;
        };
    }

    private String jsonHint(ClassicToken token) {
        return next == 1 && token.text().startsWith("{")
                ? " (this looks like a JSON/HOCON rules file: read it with RulesFiles or HoconRulesFile)" : "";
    }

    private RulesFileException error(ClassicToken at, String message) {
        return RulesFileException.at(file, at.line(), message + hint());
    }

    private String hint() {
        return fifthFieldInVersion1 ? " (note: a rule line above goes on after its segment size; without a"
                + " rule-file-version-2 first line, Open MPI reads a fifth number there as the next field)" : "";
    }

    /** A rule as written, before its message size becomes a range. */
    private record ClassicRule(long msgSize, int algorithm, int faninout, int segmentSize, int maxRequests,
                               int line) { }
}
