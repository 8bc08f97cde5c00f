package org.jmca.coll.tuned.rules;

import com.typesafe.config.Config;
import com.typesafe.config.ConfigException;
import com.typesafe.config.ConfigList;
import com.typesafe.config.ConfigResolveOptions;
import com.typesafe.config.ConfigSyntax;
import com.typesafe.config.ConfigValue;
import com.typesafe.config.ConfigValueType;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.stream.IntStream;
import org.jmca.config.UserHocon;

/**
 * Reads Open MPI's JSON rules format (Open MPI 6, coll_tuned_dynamic_file.c and
 * docs/tuning-apps/tuned_dynamic_file_schema.json), parsed as HOCON so that comments, unquoted
 * keys and trailing commas (which Open MPI's own example has) work too:
 *
 * <pre>
 * { rule_file_version: 3, module: tuned, collectives: {
 *     allreduce: [ { comm_size_min: 64, comm_size_max: 128, comm_rank_distribution: any,
 *                    rules: [ { msg_size_min: 512, msg_size_max: "inf", alg: ring,
 *                               faninout: 0, seg_size: "64k", reqs: 8 } ] } ] } }
 * </pre>
 *
 * <p>The first section that holds the communicator applies, then its first rule that holds the
 * message, as in Open MPI. Absent bounds are 0 and
 * unbounded; absent faninout, seg_size and reqs are 0. {@code comm_rank_distribution} may also
 * stand at the top, as the default of every section. As extensions, message and segment sizes
 * may be HOCON sizes ("64k" = 65536). Where Open MPI skips a rule or warns (an unknown algorithm,
 * an unknown distribution), or silently ignores (an unknown key, min above max), this reader
 * stops with the file and line. The file is read as {@link UserHocon} reads a user's HOCON: no
 * {@code include}, substitutions without the environment and bounded in number, and a nesting
 * too deep for the HOCON reader is an error naming the file.
 */
public final class HoconRulesFile {

    /** The JSON format's version, as Open MPI's converter and documentation write it. */
    static final int VERSION = 3;

    private static final String DISTRIBUTION = "comm_rank_distribution";
    private static final List<String> ROOT_KEYS =
            List.of("rule_file_version", "module", "$schema", DISTRIBUTION, "collectives");
    private static final List<String> SECTION_KEYS = List.of("comm_size_min", "comm_size_max", DISTRIBUTION, "rules");
    private static final List<String> RULE_KEYS =
            List.of("msg_size_min", "msg_size_max", "alg", "faninout", "seg_size", "reqs");

    private final Path file;

    private HoconRulesFile(Path file) {
        this.file = file;
    }

    public static RulesTable read(Path file) {
        String text = RulesText.read(file); // the same "cannot read" message as the classic reader
        return new HoconRulesFile(file).table(parse(file, text));
    }

    private static Config parse(Path file, String text) {
        try {
            // CONF also for *.json: JSON is HOCON, and comments then work
            return UserHocon.parse(text, file.toString(), ConfigSyntax.CONF, ConfigResolveOptions.noSystem());
        } catch (ConfigException e) {
            int line = e.origin() != null ? e.origin().lineNumber() : -1;
            String message = e.origin() != null ? e.getMessage().replace(e.origin().description() + ": ", "")
                    : e.getMessage();
            String where = line > 0 ? RulesFileException.origin(file, line) : file.toString();
            throw new RulesFileException(where + ": " + message, e);
        }
    }

    private RulesTable table(Config config) {
        HoconFields root = new HoconFields(file, config.root(), "the rules file", ROOT_KEYS);
        checkHeader(root);
        RankDistribution fileDistribution = distribution(root, RankDistribution.ANY);
        ConfigValue collectives = root.require("collectives", "an object of collectives, such as"
                + " collectives { allreduce: [...] }");
        HoconFields byName = new HoconFields(file, collectives, "collectives",
                Collective.all().stream().map(Collective::configName).toList(), "collective");
        Map<Collective, List<Section>> table = new LinkedHashMap<>();
        byName.object().entrySet().stream()
                .sorted(Comparator.comparingInt(e -> e.getValue().origin().lineNumber()))
                .forEach(e -> {
                    Collective collective = Collective.byConfigName(e.getKey()).orElseThrow();
                    table.put(collective, sections(collective, e.getValue(), fileDistribution));
                });
        return new RulesTable(file, table);
    }

    /** Open MPI ignores these fields; a file for another version or module is refused rather than misread. */
    private static void checkHeader(HoconFields root) {
        root.get("rule_file_version").ifPresent(v -> {
            // the type first: unwrapped() recurses into a (deeply nested) list or object
            if (v.valueType() != ConfigValueType.NUMBER || !Objects.equals(v.unwrapped(), VERSION)) {
                throw root.error(v, "expected rule_file_version to be " + VERSION + ", the version of Open MPI's"
                        + " JSON rules format, found " + HoconFields.describe(v));
            }
        });
        root.string("module").filter(module -> !module.equals("tuned")).ifPresent(module -> {
            throw root.error(root.get("module").orElseThrow(), "expected module to be 'tuned' (these are"
                    + " coll/tuned rules), found '" + module + "'");
        });
        root.string("$schema"); // documentation for editors; only its type is checked
    }

    private List<Section> sections(Collective collective, ConfigValue value, RankDistribution fileDistribution) {
        List<Section> sections = new ArrayList<>();
        for (ConfigValue element : list(value, collective.configName(), "a list of communicator-size sections")) {
            String where = "section " + (sections.size() + 1) + " of " + collective.configName();
            HoconFields fields = new HoconFields(file, element, where, SECTION_KEYS);
            long min = fields.wholeNumber("comm_size_min", 0, Section.UNBOUNDED);
            long max = fields.wholeNumberOrInf("comm_size_max", Section.UNBOUNDED, Section.UNBOUNDED);
            checkOrder(fields, "comm_size_min", min, "comm_size_max", max);
            RankDistribution distribution = distribution(fields, fileDistribution);
            ConfigValue rules = fields.require("rules", "a list of message-size rules");
            String owner = collective.configName() + "'s section " + (sections.size() + 1);
            sections.add(new Section((int) min, (int) max, rules(collective, rules, where, owner),
                    fields.origin(element), distribution));
        }
        return sections;
    }

    /**
     * @param section "section 2 of bcast"
     * @param owner   "bcast's section 2"
     */
    private List<Rule> rules(Collective collective, ConfigValue value, String section, String owner) {
        List<Rule> rules = new ArrayList<>();
        for (ConfigValue element : list(value, "rules of " + section, "a list of message-size rules")) {
            String where = "rule " + (rules.size() + 1) + " of " + owner;
            HoconFields fields = new HoconFields(file, element, where, RULE_KEYS);
            long min = fields.bytes("msg_size_min", 0, Rule.UNBOUNDED);
            long max = fields.bytesOrInf("msg_size_max", Rule.UNBOUNDED, Rule.UNBOUNDED);
            checkOrder(fields, "msg_size_min", min, "msg_size_max", max);
            int algorithm = algorithm(collective, fields);
            int faninout = (int) fields.wholeNumber("faninout", 0, Integer.MAX_VALUE);
            int segmentSize = (int) fields.bytes("seg_size", 0, Integer.MAX_VALUE);
            int maxRequests = (int) fields.wholeNumber("reqs", 0, Integer.MAX_VALUE);
            rules.add(new Rule(min, max, algorithm, faninout, segmentSize, maxRequests, fields.origin(element)));
        }
        return rules;
    }

    private static int algorithm(Collective collective, HoconFields fields) {
        ConfigValue alg = fields.require("alg", "the algorithm: " + collective.algorithmChoices());
        boolean wholeNumber = alg.valueType() == ConfigValueType.NUMBER
                && (alg.unwrapped() instanceof Integer || alg.unwrapped() instanceof Long);
        if (alg.valueType() != ConfigValueType.STRING && !wholeNumber) {
            throw fields.error(alg, "expected alg of " + fields.where() + " to be an algorithm of "
                    + collective.configName() + ": " + collective.algorithmChoices() + ", found "
                    + HoconFields.describe(alg));
        }
        String text = String.valueOf(alg.unwrapped());
        try {
            return collective.algorithmNumber(text);
        } catch (IllegalArgumentException e) {
            throw fields.error(alg, "expected alg of " + fields.where() + " to be an algorithm of "
                    + collective.configName() + ": " + collective.algorithmChoices() + ", found "
                    + HoconFields.describe(alg) + suggestion(collective, text));
        }
    }

    private static String suggestion(Collective collective, String text) {
        if (!(collective instanceof TunedCollective tuned) || text.chars().allMatch(Character::isDigit)) {
            return "";
        }
        List<String> names = IntStream.rangeClosed(0, tuned.algorithmCount())
                .mapToObj(tuned::algorithmName).toList();
        return "; did you mean " + ClosestName.to(text, names) + "?";
    }

    private RankDistribution distribution(HoconFields fields, RankDistribution fallback) {
        return fields.string(DISTRIBUTION)
                .map(name -> RankDistribution.byConfigName(name).orElseThrow(() -> fields.error(
                        fields.get(DISTRIBUTION).orElseThrow(), "expected " + DISTRIBUTION + " of " + fields.where()
                                + " to be one of " + RankDistribution.choices() + ", found '" + name + "'")))
                .orElse(fallback);
    }

    private static void checkOrder(HoconFields fields, String minKey, long min, String maxKey, long max) {
        if (min > max) {
            ConfigValue at = fields.get(minKey).orElseGet(() -> fields.get(maxKey).orElseThrow());
            throw fields.error(at, minKey + " " + min + " of " + fields.where() + " is above its " + maxKey + " "
                    + max + ": the range is empty");
        }
    }

    private List<ConfigValue> list(ConfigValue value, String what, String expected) {
        if (value.valueType() != ConfigValueType.LIST) {
            throw RulesFileException.at(file, value.origin().lineNumber(), "expected " + what + " to be "
                    + expected + " [...], found " + HoconFields.describe(value));
        }
        return (ConfigList) value;
    }
}
