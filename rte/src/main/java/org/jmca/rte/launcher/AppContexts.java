package org.jmca.rte.launcher;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.stream.Collectors;
import org.jmca.rte.EmbeddedWireUp;

/**
 * The main class of a job of several programs (MPI_Comm_spawn_multiple's application contexts):
 * each rank runs the program of the context its rank falls in, with that context's arguments.
 * Arguments: for each context, its number of ranks, its main class, its number of arguments and
 * the arguments. A rank learns its context through the properties {@value #APP_NUMBER} and
 * {@value #APP_SIZES}, which MPI.APPNUM and MPI.INFO_ENV report.
 */
public final class AppContexts {
    /** The system property with this rank's context number, from 0. */
    public static final String APP_NUMBER = "jmca.appnum";
    /** The system property with every context's number of ranks, space-separated. */
    public static final String APP_SIZES = "jmca.app.sizes";

    /** One context: {@code size} ranks of {@code mainClass} with {@code args}. */
    public record App(int size, String mainClass, List<String> args) {
    }

    private AppContexts() {
    }

    /** The arguments that start {@code apps} as one job. */
    public static List<String> arguments(List<App> apps) {
        List<String> line = new ArrayList<>();
        for (App app : apps) {
            line.add(Integer.toString(app.size()));
            line.add(app.mainClass());
            line.add(Integer.toString(app.args().size()));
            line.addAll(app.args());
        }
        return line;
    }

    static List<App> parse(String[] line) {
        List<App> apps = new ArrayList<>();
        for (int at = 0; at < line.length; ) {
            int size = Integer.parseInt(line[at]);
            String mainClass = line[at + 1];
            int count = Integer.parseInt(line[at + 2]);
            apps.add(new App(size, mainClass, List.of(Arrays.copyOfRange(line, at + 3, at + 3 + count))));
            at += 3 + count;
        }
        return apps;
    }

    public static void main(String[] line) throws Throwable {
        List<App> apps = parse(line);
        int rank = Integer.parseInt(System.getenv(EmbeddedWireUp.ENV_RANK));
        int first = 0;
        for (int number = 0; number < apps.size(); number++) {
            App app = apps.get(number);
            if (rank < first + app.size()) {
                System.setProperty(APP_NUMBER, Integer.toString(number));
                System.setProperty(APP_SIZES, apps.stream().map(a -> Integer.toString(a.size()))
                        .collect(Collectors.joining(" ")));
                ThreadJob.main(app.mainClass(), app.args()).run(rank, AppContexts.class.getClassLoader());
                return;
            }
            first += app.size();
        }
        throw new IllegalStateException("rank " + rank + " is beyond the " + first + " ranks of the contexts "
                + String.join(" ", line));
    }
}
