package org.jmca.config;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import picocli.CommandLine.Option;

/**
 * The parameter flags every JMCA command takes, as a picocli mixin:
 * {@code --mca NAME VALUE} (repeatable) and {@code --tune FILE[,FILE...]} (repeatable).
 */
public final class McaOptions {

    @Option(names = {"--mca", "-mca"}, arity = "2", paramLabel = " NAME VALUE", hideParamSyntax = true,
            description = "Set an MCA parameter, e.g. --mca btl self,tcp. Repeatable; a later one wins.")
    private List<String> mca = new ArrayList<>();

    @Option(names = "--tune", paramLabel = "FILE", split = ",",
            description = "Read parameters from FILE (Open MPI 'name = value' lines or HOCON). Repeatable;"
                    + " a later file wins.")
    private List<Path> tune = new ArrayList<>();

    /** Adds {@code --mca name value}, as if it came last on the command line. */
    public McaOptions mca(String name, String value) {
        mca.add(name);
        mca.add(value);
        return this;
    }

    /** Adds {@code --tune file}, as if it came last on the command line. */
    public McaOptions tune(Path file) {
        tune.add(file);
        return this;
    }

    /** The {@code --mca} pairs in the order given. */
    public List<Map.Entry<String, String>> mcaPairs() {
        List<Map.Entry<String, String>> pairs = new ArrayList<>();
        for (int i = 0; i + 1 < mca.size(); i += 2) {
            pairs.add(Map.entry(mca.get(i), mca.get(i + 1)));
        }
        return pairs;
    }

    public List<Path> tuneFiles() {
        return List.copyOf(tune);
    }

    /** This process's sources with the flags applied. */
    public McaSources sources() {
        return McaSources.ofProcess().commandLine(mcaPairs()).tuneFiles(tuneFiles());
    }
}
