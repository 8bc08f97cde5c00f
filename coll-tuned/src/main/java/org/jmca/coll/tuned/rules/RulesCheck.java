package org.jmca.coll.tuned.rules;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jmca.mca.param.ParamType;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * {@code jmca-coll-rules}: checks a coll/tuned rules file and shows what it decides, either for
 * one call (--comm-size and --msg-size) or as a whole table. Exit status: 0, 1 when the rules
 * file has an error (printed as "file:line: message" on stderr), 2 for bad usage.
 */
@Command(name = "jmca-coll-rules", sortOptions = false,
        description = {"Checks a coll/tuned rules file (classic or HOCON/JSON) and shows its decisions.",
                "With --comm-size and --msg-size, shows the rule each collective would use;"
                        + " without them, prints the whole table."})
public final class RulesCheck implements Callable<Integer> {

    @Option(names = "--coll-rules", required = true, paramLabel = "FILE",
            description = "The rules file, as coll_tuned_dynamic_rules_filename names it.")
    private Path rulesFile;

    @Option(names = "--comm-size", paramLabel = "N", description = "The communicator size of the call.")
    private Integer commSize;

    @Option(names = "--msg-size", paramLabel = "S", converter = SizeConverter.class,
            description = "The message size of the call in bytes, as coll/tuned computes it: 1024, 64k, 1m.")
    private Long msgSize;

    @Option(names = "--coll", paramLabel = "NAME", converter = CollectiveConverter.class,
            description = "Only this collective (allreduce, bcast, ...); default: every collective in the file.")
    private TunedCollective collective;

    @Option(names = "--rank-distribution", paramLabel = "LAYOUT", converter = DistributionConverter.class,
            defaultValue = "any", description = "The communicator's layout: any (default: several ranks on"
                    + " several nodes, or not known), single-node or one-per-node.")
    private RankDistribution layout;

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    private boolean help;

    @Spec
    private CommandSpec spec;

    private final PrintWriter out;
    private final PrintWriter err;

    RulesCheck(PrintWriter out, PrintWriter err) {
        this.out = out;
        this.err = err;
    }

    public static void main(String[] args) {
        System.exit(run(new PrintWriter(System.out, true), new PrintWriter(System.err, true), args));
    }

    /** Runs the command and returns its exit status: 0, 1 for an error in the rules file, 2 for bad usage. */
    public static int run(PrintWriter out, PrintWriter err, String... args) {
        CommandLine command = new CommandLine(new RulesCheck(out, err));
        command.setOut(out);
        command.setErr(err);
        int status = command.execute(args);
        out.flush();
        err.flush();
        return status;
    }

    @Override
    public Integer call() {
        if ((commSize == null) != (msgSize == null)) {
            throw new ParameterException(spec.commandLine(),
                    "give --comm-size and --msg-size together for a decision, or neither for the whole table");
        }
        if (commSize != null && commSize < 0) {
            throw new ParameterException(spec.commandLine(), "--comm-size must be 0 or more, found " + commSize);
        }
        RulesTable table;
        try {
            table = RulesFiles.read(rulesFile);
        } catch (RulesFileException e) {
            err.println(e.getMessage());
            return 1;
        }
        if (commSize == null) {
            RulesReport.table(table, Optional.ofNullable(collective)).forEach(out::println);
        } else {
            List<TunedCollective> shown = collective != null ? List.of(collective) : tunedIn(table);
            if (shown.isEmpty()) {
                out.println("no collective in " + table.source() + " has rules coll/tuned consults: fixed rules"
                        + " decide");
            }
            int width = shown.stream().mapToInt(c -> c.configName().length()).max().orElse(0);
            shown.forEach(c -> out.println(RulesReport.decision(table, c, commSize, msgSize, layout, width)));
        }
        return 0;
    }

    private static List<TunedCollective> tunedIn(RulesTable table) {
        return table.collectives().stream()
                .filter(TunedCollective.class::isInstance)
                .map(TunedCollective.class::cast)
                .toList();
    }

    /** Sizes as JMCA's size parameters take them: 1024, 64k, 1m (powers of 1024). */
    static final class SizeConverter implements CommandLine.ITypeConverter<Long> {
        @Override
        public Long convert(String value) {
            try {
                return ParamType.SIZE.parse(value);
            } catch (IllegalArgumentException e) {
                throw new CommandLine.TypeConversionException(e.getMessage());
            }
        }
    }

    static final class CollectiveConverter implements CommandLine.ITypeConverter<TunedCollective> {
        @Override
        public TunedCollective convert(String value) {
            return TunedCollective.byName(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "no collective '" + value + "' in coll/tuned; did you mean "
                            + ClosestName.to(value, names()) + "? Collectives: " + String.join(", ", names())));
        }

        private static List<String> names() {
            return Arrays.stream(TunedCollective.values()).map(TunedCollective::configName).toList();
        }
    }

    static final class DistributionConverter implements CommandLine.ITypeConverter<RankDistribution> {
        @Override
        public RankDistribution convert(String value) {
            return RankDistribution.byConfigName(value).orElseThrow(() -> new CommandLine.TypeConversionException(
                    "'" + value + "' is not a layout: expected one of " + RankDistribution.choices()));
        }
    }
}
