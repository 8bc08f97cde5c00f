package app;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.jmca.launch.MpiJob;

/** Runs {@link Hello} as 2 rank processes, then as 2 thread ranks, and prints what each rank printed. */
public class RunHello {
    public static void main(String[] args) throws Exception {
        Path classes = Path.of(args.length > 0 ? args[0] : "target/classes");
        for (MpiJob.Builder job : List.of(MpiJob.processes(2), MpiJob.threads(2))) {
            MpiJob.Result result = job.classPath(classes).main("app.Hello").start().waitFor(Duration.ofMinutes(1));
            System.out.println(result.stdout(0) + " / " + result.stdout(1));
        }
    }
}
