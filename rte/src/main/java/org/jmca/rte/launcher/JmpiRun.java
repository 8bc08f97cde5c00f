package org.jmca.rte.launcher;

import java.io.PrintStream;
import java.util.concurrent.Callable;
import org.jmca.launch.MpiJob;
import org.jmca.mca.McaException;
import org.jmca.rte.AotCacheUse;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;

/**
 * {@code jmpirun}: its flags ({@link LaunchOptions}) make a job of the launch API
 * ({@link MpiJob}), which runs it, printing the ranks' output here, giving rank 0 this process's
 * standard input (thread ranks share it) and the ranks its SIGUSR1 and SIGUSR2; jmpirun exits
 * with the job's status.
 */
@Command(name = "jmpirun", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs an MPI program on N processes, on this host or on the hosts given, or on N threads of"
                + " this JVM (--ranks-as threads).",
                "  jmpirun -np 4 [--mca NAME VALUE]... [-cp CLASSPATH] CLASS [ARGS...]",
                "  jmpirun -np 4 --host h1:2,h2:2 [--map-by slot|node] ... CLASS [ARGS...]",
                "  jmpirun -np 4 [--mca NAME VALUE]... -jar JAR [ARGS...]"})
public final class JmpiRun implements Callable<Integer> {
    @Mixin
    private LaunchOptions options = new LaunchOptions();

    private final PrintStream out;
    private final PrintStream err;

    JmpiRun(PrintStream out, PrintStream err) {
        this.out = out;
        this.err = err;
    }

    @Override
    public Integer call() throws InterruptedException {
        return MpiJob.from(options).printTo(out, err).attachTerminal().keepOutput(false).start().status();
    }

    public static void main(String[] args) {
        String stale = System.getProperty("jmca.launcher.aot.stale");
        String cache = System.getProperty("jmca.launcher.aot");
        if (stale != null) {
            System.err.println("jmpirun: warning: jmpirun starts without its ahead-of-time cache " + stale
                    + ", which is older than a jar beside it (rebuild: ./mvnw -q install -DskipTests)");
        } else if (cache != null && !AotCacheUse.sharing()) {
            System.err.println("jmpirun: warning: jmpirun starts without its ahead-of-time cache " + cache
                    + ", which this JVM refused (jmca-info says why): jobs start slower");
        }
        CommandLine command = new CommandLine(new JmpiRun(System.out, System.err)).setStopAtPositional(true);
        command.setExecutionExceptionHandler((e, cmd, parseResult) -> {
            if (e instanceof McaException || e instanceof IllegalArgumentException) {
                System.err.println("jmpirun: error: " + e.getMessage());
                return 1;
            }
            throw e;
        });
        System.exit(command.execute(args));
    }
}
