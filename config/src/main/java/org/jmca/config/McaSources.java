package org.jmca.config;

import java.io.IOException;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;
import org.jmca.mca.param.ValueSource.Kind;

/**
 * Gathers the settings of every parameter source into the list a {@link ParameterRegistry}
 * resolves, lowest precedence first:
 * <ol>
 *   <li>{@code reference.conf} resources on the class path (their {@code jmca} object)</li>
 *   <li>the system file {@code $JMCA_HOME/etc/mca-params.conf}</li>
 *   <li>the user file {@code ~/.jmca/mca-params.conf}</li>
 *   <li>{@code --tune FILE}s, a later file above an earlier one</li>
 *   <li>environment variables {@code JMCA_MCA_<name>}</li>
 *   <li>{@code --mca <name> <value>}, a later flag above an earlier one</li>
 * </ol>
 * The API sits above all of these, and a parameter's declared default below.
 * The system and user files are optional; a {@code --tune} file that does not exist is an error.
 */
public final class McaSources {
    /** Prefix of the environment variables that set parameters. */
    public static final String ENV_PREFIX = "JMCA_MCA_";
    /** Where a launcher hands its {@code --mca} pairs to the processes it starts. */
    public static final String ENV_COMMAND_LINE = "JMCA_CMDLINE_MCA";
    /** Where a launcher hands its {@code --tune} files (comma-separated) to the processes it starts. */
    public static final String ENV_TUNE_FILES = "JMCA_TUNE_FILES";
    /** Name of the user and system parameter files. */
    public static final String FILE_NAME = "mca-params.conf";

    private List<Map.Entry<String, String>> commandLine = List.of();
    private Map<String, String> environment = Map.of();
    private List<Path> tuneFiles = List.of();
    private Path userHome;
    private Path jmcaHome;
    private ClassLoader classLoader;

    private McaSources() {
    }

    /**
     * Sources of this process: its environment, its home ({@code $HOME} as Open MPI reads it, else
     * {@code user.home}), {@code $JMCA_HOME} and its class loader.
     */
    public static McaSources ofProcess() {
        return ofEnvironment(System.getenv());
    }

    /**
     * Sources of a rank whose environment is {@code env} (a thread rank's is its own, not the
     * JVM's): its variables, home and {@code JMCA_HOME} from there, and the thread's class loader.
     */
    public static McaSources ofEnvironment(Map<String, String> env) {
        String home = env.get("HOME");
        McaSources sources = new McaSources().environment(env)
                .userHome(home == null || home.isBlank() ? Path.of(System.getProperty("user.home"))
                        : path(home, "HOME"))
                .classLoader(Thread.currentThread().getContextClassLoader());
        String jmcaHome = env.get("JMCA_HOME");
        if (jmcaHome != null && !jmcaHome.isBlank()) {
            sources.jmcaHome(path(jmcaHome, "JMCA_HOME"));
        }
        // In a process started by jmpirun, its --mca and --tune flags count as this process's own.
        String commandLine = env.get(ENV_COMMAND_LINE);
        if (commandLine != null && !commandLine.isEmpty()) {
            sources.commandLine(decodeCommandLine(commandLine));
        }
        String tune = env.get(ENV_TUNE_FILES);
        if (tune != null && !tune.isEmpty()) {
            sources.tuneFiles(Arrays.stream(tune.split(",")).map(file -> path(file, ENV_TUNE_FILES)).toList());
        }
        return sources;
    }

    private static Path path(String text, String variable) {
        try {
            return Path.of(text);
        } catch (InvalidPathException e) {
            throw new ParameterException("environment " + variable + ": '" + text + "' is not a path: "
                    + e.getReason(), e);
        }
    }

    /** {@code --mca} pairs as one environment value: {@code name=value} lines. */
    public static String encodeCommandLine(List<Map.Entry<String, String>> pairs) {
        StringBuilder text = new StringBuilder();
        for (Map.Entry<String, String> pair : pairs) {
            if (pair.getKey().isEmpty() || pair.getKey().contains("=") || pair.getKey().contains("\n")
                    || pair.getValue().contains("\n")) {
                throw new ParameterException("--mca " + pair.getKey() + " " + pair.getValue()
                        + ": a name may not be empty or hold '=' or a line break, nor a value a line break");
            }
            text.append(pair.getKey()).append('=').append(pair.getValue()).append('\n');
        }
        return text.toString();
    }

    /**
     * The pairs {@link #encodeCommandLine} wrote; blank lines are skipped.
     *
     * @throws ParameterException naming the variable and line of a line that is not {@code name=value}
     */
    static List<Map.Entry<String, String>> decodeCommandLine(String text) {
        List<Map.Entry<String, String>> pairs = new ArrayList<>();
        String[] lines = text.split("\n");
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i];
            int eq = line.indexOf('=');
            if (eq > 0) {
                pairs.add(Map.entry(line.substring(0, eq), line.substring(eq + 1)));
            } else if (!line.isBlank()) {
                throw new ParameterException("environment " + ENV_COMMAND_LINE + " line " + (i + 1) + ": '" + line
                        + "' is not name=value, as jmpirun writes the --mca pairs there");
            }
        }
        return List.copyOf(pairs);
    }

    /** Sources with nothing set: tests add what they need. */
    public static McaSources empty() {
        return new McaSources();
    }

    /** {@code --mca} pairs in the order given. */
    public McaSources commandLine(List<Map.Entry<String, String>> pairs) {
        this.commandLine = List.copyOf(pairs);
        return this;
    }

    public McaSources environment(Map<String, String> variables) {
        this.environment = Map.copyOf(variables);
        return this;
    }

    public McaSources tuneFiles(List<Path> files) {
        this.tuneFiles = List.copyOf(files);
        return this;
    }

    public McaSources userHome(Path home) {
        this.userHome = home;
        return this;
    }

    public McaSources jmcaHome(Path home) {
        this.jmcaHome = home;
        return this;
    }

    /** Where {@code reference.conf} resources are looked for; none when not set. */
    public McaSources classLoader(ClassLoader loader) {
        this.classLoader = loader;
        return this;
    }

    /** The user file, {@code ~/.jmca/mca-params.conf}, or null without a home. */
    public Path userFile() {
        return userHome == null ? null : userHome.resolve(".jmca").resolve(FILE_NAME);
    }

    /** The system file, {@code $JMCA_HOME/etc/mca-params.conf}, or null without JMCA_HOME. */
    public Path systemFile() {
        return jmcaHome == null ? null : jmcaHome.resolve("etc").resolve(FILE_NAME);
    }

    /**
     * Reads every source.
     *
     * @throws ParameterException naming the file and line of anything it cannot read
     */
    public List<RawValue> read() {
        List<RawValue> values = new ArrayList<>(referenceDefaults());
        values.addAll(optionalFile(systemFile(), Kind.SYSTEM_FILE));
        values.addAll(optionalFile(userFile(), Kind.USER_FILE));
        for (Path tune : tuneFiles) {
            if (!Files.isRegularFile(tune)) {
                throw new ParameterException("--tune file " + tune + " does not exist or is not a file");
            }
            values.addAll(ParameterFile.read(tune, Kind.TUNE_FILE));
        }
        // Sorted so that the order of the environment map does not matter.
        new TreeMap<>(environment).forEach((variable, value) -> {
            if (variable.startsWith(ENV_PREFIX) && variable.length() > ENV_PREFIX.length()) {
                values.add(new RawValue(variable.substring(ENV_PREFIX.length()), value,
                        new ValueSource(Kind.ENVIRONMENT, variable)));
            }
        });
        for (Map.Entry<String, String> pair : commandLine) {
            values.add(new RawValue(pair.getKey(), pair.getValue(),
                    new ValueSource(Kind.COMMAND_LINE, "--mca " + pair.getKey())));
        }
        return values;
    }

    /** A registry resolving every parameter against these sources. */
    public ParameterRegistry registry() {
        return new ParameterRegistry(read());
    }

    private List<RawValue> referenceDefaults() {
        if (classLoader == null) {
            return List.of();
        }
        List<RawValue> values = new ArrayList<>();
        try {
            for (URL resource : Collections.list(classLoader.getResources("reference.conf"))) {
                values.addAll(ParameterFile.readReference(resource));
            }
        } catch (IOException e) {
            throw new ParameterException("reference.conf files cannot be listed: " + e.getMessage(), e);
        }
        return values;
    }

    private static List<RawValue> optionalFile(Path file, Kind kind) {
        return file != null && Files.isRegularFile(Objects.requireNonNull(file))
                ? ParameterFile.read(file, kind)
                : List.of();
    }
}
