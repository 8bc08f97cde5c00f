package org.jmca.coll.tuned.rules;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.stream.LongStream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;
import net.jqwik.api.constraints.LongRange;

/**
 * Random valid classic tables, written to a file and read back, answer every lookup as Open
 * MPI's classic search does: walk the sections while their size is at or below the
 * communicator's (starting from the first), then the rules while their size is at or below the
 * message's.
 */
class ClassicLookupPropertyTest {

    @Property(tries = 400)
    void lookupsGiveOpenMpisClassicAnswer(@ForAll("tables") TableSpec spec,
                                          @ForAll @IntRange(min = 0, max = 70) int commSize,
                                          @ForAll @LongRange(min = 0, max = 5000) long msgSize) throws IOException {
        Path file = Files.createTempFile("rules", ".conf");
        try {
            Files.writeString(file, spec.write());
            RulesTable table = ClassicRulesFile.read(file);
            for (TunedCollective collective : TunedCollective.values()) {
                for (int c : probes(spec, collective, commSize)) {
                    for (long m : probes(spec, collective, c, msgSize)) {
                        assertThat(table.lookup(collective, c, m).map(ClassicLookupPropertyTest::fields))
                                .as("%s, communicator size %d, message size %d in%n%s", collective, c, m, spec.write())
                                .isEqualTo(spec.openMpiLookup(collective, c, m).map(RuleSpec::fields));
                    }
                }
            }
        } finally {
            Files.delete(file);
        }
    }

    /** The random communicator size, and the sizes around every section's. */
    private static List<Integer> probes(TableSpec spec, TunedCollective collective, int random) {
        List<Integer> probes = new ArrayList<>(List.of(random));
        spec.sections(collective).forEach(s -> probes.addAll(List.of(Math.max(0, s.commSize() - 1), s.commSize(),
                s.commSize() + 1)));
        return probes;
    }

    /** The random message size, and the sizes around every rule's of the section Open MPI picks. */
    private static List<Long> probes(TableSpec spec, TunedCollective collective, int commSize, long random) {
        List<Long> probes = new ArrayList<>(List.of(random, Long.MAX_VALUE));
        spec.openMpiSection(collective, commSize).ifPresent(s -> s.rules().forEach(r -> probes.addAll(
                LongStream.of(Math.max(0, r.msgSize() - 1), r.msgSize(), r.msgSize() + 1).boxed().toList())));
        return probes;
    }

    private static List<Integer> fields(Rule rule) {
        return List.of(rule.algorithm(), rule.faninout(), rule.segmentSize(), rule.maxRequests());
    }

    @Provide
    Arbitrary<TableSpec> tables() {
        return Combinators.combine(Arbitraries.of(1, 2), Arbitraries.longs())
                .flatAs((version, seed) -> collectives(version).map(list -> new TableSpec(version, list, seed)));
    }

    private Arbitrary<List<CollSpec>> collectives(int version) {
        return Arbitraries.of(TunedCollective.values()).set().ofMaxSize(5).flatMap(chosen -> all(
                chosen.stream().map(c -> sections(c, version)).toList()));
    }

    private Arbitrary<CollSpec> sections(TunedCollective collective, int version) {
        return Arbitraries.integers().between(0, 64).set().ofMaxSize(4)
                .flatMap(sizes -> all(sizes.stream().sorted().map(size -> section(collective, size, version)).toList()))
                .map(sections -> new CollSpec(collective, sections));
    }

    private Arbitrary<SectionSpec> section(TunedCollective collective, int commSize, int version) {
        Arbitrary<List<Long>> keys = Arbitraries.integers().between(0, 4).flatMap(n -> n == 0
                ? Arbitraries.just(List.<Long>of())
                : Arbitraries.longs().between(1, 4096).set().ofSize(n - 1).map(more -> {
                    List<Long> sorted = new ArrayList<>(List.of(0L));
                    more.stream().sorted().forEach(sorted::add);
                    return sorted;
                }));
        return keys.flatMap(msgSizes -> all(msgSizes.stream().map(m -> rule(collective, m, version)).toList()))
                .map(rules -> new SectionSpec(commSize, rules));
    }

    private Arbitrary<RuleSpec> rule(TunedCollective collective, long msgSize, int version) {
        Arbitrary<Integer> maxRequests = version == 2
                ? Arbitraries.integers().between(0, 64).injectNull(0.5) : Arbitraries.just(null);
        return Combinators.combine(Arbitraries.integers().between(0, collective.algorithmCount()),
                        Arbitraries.integers().between(0, 8), Arbitraries.of(0, 1024, 8192, 65536), maxRequests)
                .as((algorithm, faninout, segmentSize, requests) ->
                        new RuleSpec(msgSize, algorithm, faninout, segmentSize, requests));
    }

    private static <T> Arbitrary<List<T>> all(List<Arbitrary<T>> each) {
        return each.isEmpty() ? Arbitraries.just(List.of()) : Combinators.combine(each).as(List::copyOf);
    }

    /** A rule as generated; {@code maxRequests} is null when the line has no fifth field. */
    record RuleSpec(long msgSize, int algorithm, int faninout, int segmentSize, Integer maxRequests) {
        List<Integer> fields() {
            return List.of(algorithm, faninout, segmentSize, maxRequests == null ? 0 : maxRequests);
        }
    }

    record SectionSpec(int commSize, List<RuleSpec> rules) { }

    record CollSpec(TunedCollective collective, List<SectionSpec> sections) { }

    /** A table, and the seed of the blanks and comments its file is laid out with. */
    record TableSpec(int version, List<CollSpec> collectives, long layoutSeed) {

        List<SectionSpec> sections(TunedCollective collective) {
            return collectives.stream().filter(c -> c.collective() == collective).findFirst()
                    .map(CollSpec::sections).orElse(List.of());
        }

        /** Open MPI's ompi_coll_tuned_get_com_rule_ptr: stop at the first larger size; the first if none. */
        Optional<SectionSpec> openMpiSection(TunedCollective collective, int commSize) {
            List<SectionSpec> sections = sections(collective);
            if (sections.isEmpty()) {
                return Optional.empty();
            }
            SectionSpec best = sections.getFirst();
            for (SectionSpec section : sections) {
                if (section.commSize() > commSize) {
                    break;
                }
                best = section;
            }
            return Optional.of(best);
        }

        /** Then ompi_coll_tuned_get_target_method_params, the same walk over message sizes. */
        Optional<RuleSpec> openMpiLookup(TunedCollective collective, int commSize, long msgSize) {
            return openMpiSection(collective, commSize).filter(s -> !s.rules().isEmpty()).map(s -> {
                RuleSpec best = s.rules().getFirst();
                for (RuleSpec rule : s.rules()) {
                    if (rule.msgSize() > msgSize) {
                        break;
                    }
                    best = rule;
                }
                return best;
            });
        }

        /** The file: version 2 one rule per line, version 1 as a stream with random line breaks. */
        String write() {
            Random layout = new Random(layoutSeed);
            StringBuilder text = new StringBuilder(version == 2 ? "rule-file-version-2\n# generated\n" : "");
            List<String> words = new ArrayList<>();
            words.add(String.valueOf(collectives.size()));
            for (CollSpec c : collectives) {
                words.addAll(List.of(String.valueOf(c.collective().id()), String.valueOf(c.sections().size())));
                for (SectionSpec s : c.sections()) {
                    words.addAll(List.of(String.valueOf(s.commSize()), String.valueOf(s.rules().size())));
                    for (RuleSpec r : s.rules()) {
                        String line = r.msgSize() + " " + r.algorithm() + " " + r.faninout() + " " + r.segmentSize()
                                + (r.maxRequests() == null ? "" : "\t" + r.maxRequests());
                        words.add(version == 2 ? line + (layout.nextBoolean() ? "  # a rule" : "") + "\n" : line);
                    }
                }
            }
            String[] separators = {" ", "\n", "\t", "  # a comment\n", "\n\n"};
            for (String word : words) {
                text.append(word);
                if (!word.endsWith("\n")) {
                    text.append(version == 2 ? "\n" : separators[layout.nextInt(separators.length)]);
                }
            }
            return text.toString();
        }
    }
}
