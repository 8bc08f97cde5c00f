package org.jmca.junit;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.net.URL;
import java.time.Duration;
import java.util.AbstractMap;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.jmca.config.McaSources;
import org.jmca.rte.launcher.Launcher;
import org.jmca.rte.launcher.ThreadJob;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.InvocationInterceptor;
import org.junit.jupiter.api.extension.ReflectiveInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.junit.jupiter.api.extension.TestTemplateInvocationContextProvider;

/** Runs {@link MpiTest} methods: one invocation per rank count, each an MPI job of thread ranks. */
final class MpiTestExtension implements TestTemplateInvocationContextProvider {

    @Override
    public boolean supportsTestTemplate(ExtensionContext context) {
        return context.getTestMethod().map(m -> m.isAnnotationPresent(MpiTest.class)).orElse(false);
    }

    @Override
    public Stream<TestTemplateInvocationContext> provideTestTemplateInvocationContexts(ExtensionContext context) {
        MpiTest test = context.getRequiredTestMethod().getAnnotation(MpiTest.class);
        if (test.ranks().length == 0) {
            throw new IllegalArgumentException("@MpiTest(ranks = {}) on " + context.getRequiredTestMethod()
                    + " gives no number of ranks");
        }
        return Arrays.stream(test.ranks()).mapToObj(ranks -> new TestTemplateInvocationContext() {
            @Override
            public String getDisplayName(int invocationIndex) {
                return ranks + (ranks == 1 ? " rank" : " ranks");
            }

            @Override
            public List<Extension> getAdditionalExtensions() {
                return List.of(new RunAsJob(ranks, test));
            }
        });
    }

    /** Replaces JUnit's call of the method with the job that calls it on every rank. */
    private record RunAsJob(int ranks, MpiTest test) implements InvocationInterceptor {
        @Override
        public void interceptTestTemplateMethod(Invocation<Void> invocation,
                                                ReflectiveInvocationContext<Method> call,
                                                ExtensionContext context) throws Throwable {
            invocation.skip();
            if (ranks < 1) {
                throw new IllegalArgumentException("@MpiTest(ranks = " + ranks + "): a job needs at least one rank");
            }
            Method method = call.getExecutable();
            if (method.getParameterCount() != 0) {
                throw new IllegalArgumentException("@MpiTest method " + method.getName() + " takes parameters: the"
                        + " ranks call it with none (ask MPI.COMM_WORLD for the rank and size)");
            }
            new Run(ranks, test, method).run();
        }
    }

    /** One job: its ranks' failures and output. */
    private static final class Run implements Launcher.Listener {
        private final int ranks;
        private final MpiTest test;
        private final Method method;
        private final Throwable[] failures;
        private volatile String stopping;

        Run(int ranks, MpiTest test, Method method) {
            this.ranks = ranks;
            this.test = test;
            this.method = method;
            this.failures = new Throwable[ranks];
        }

        void run() throws Throwable {
            Class<?> testClass = method.getDeclaringClass();
            URL location = testClass.getProtectionDomain().getCodeSource().getLocation();
            ThreadJob job = new ThreadJob(ranks, List.of(location), environment(), Duration.ofSeconds(60),
                    this::runRank, this);
            int[] status = {-1};
            Throwable[] broken = {null};
            Thread runner = Thread.ofPlatform().name("jmca-mpitest").daemon().unstarted(() -> {
                try {
                    status[0] = job.run(Duration.ZERO);
                } catch (Throwable e) {
                    broken[0] = e;
                }
            });
            runner.start();
            try {
                runner.join(Duration.ofSeconds(test.timeoutSeconds()));
            } catch (InterruptedException e) {
                job.cancel();
                throw e;
            }
            if (runner.isAlive()) {
                String stacks = job.stacks().entrySet().stream()
                        .map(rank -> "rank " + rank.getKey() + ":\n" + Arrays.stream(rank.getValue())
                                .map(frame -> "\tat " + frame).collect(Collectors.joining("\n")))
                        .collect(Collectors.joining("\n"));
                job.cancel();
                runner.join(Duration.ofSeconds(10));
                throw new AssertionError(method.getName() + " on " + ranks + " ranks did not finish within "
                        + test.timeoutSeconds() + " s (@MpiTest timeoutSeconds); the ranks' stacks:\n" + stacks);
            }
            // The rank the job names first failed; the others' errors echo its end.
            java.util.regex.Matcher named = stopping == null ? null : java.util.regex.Pattern.compile("^rank (\\d+) ")
                    .matcher(stopping);
            int first = named != null && named.find() ? Integer.parseInt(named.group(1)) : -1;
            for (int rank : first >= 0 ? new int[] {first} : java.util.stream.IntStream.range(0, ranks).toArray()) {
                Throwable failure = failures[rank];
                if (failure != null) {
                    AssertionError reported = new AssertionError("rank " + rank + " of " + ranks + ": " + failure,
                            failure);
                    reported.setStackTrace(failure.getStackTrace());
                    throw reported;
                }
            }
            if (stopping != null || broken[0] != null || status[0] != 0) {
                throw new AssertionError(method.getName() + " on " + ranks + " ranks: "
                        + (stopping != null ? stopping : broken[0] != null ? "the job could not run: " + broken[0]
                        : "the job ended with status " + status[0]), broken[0]);
            }
        }

        /** Parameters of the annotation as jmpirun's --mca; MPI.Init's warm-up off unless asked for. */
        private Map<String, String> environment() {
            List<Map.Entry<String, String>> pairs = new ArrayList<>();
            for (String parameter : test.mca()) {
                int eq = parameter.indexOf('=');
                if (eq <= 0) {
                    throw new IllegalArgumentException("@MpiTest(mca = \"" + parameter + "\"): give name=value");
                }
                pairs.add(new AbstractMap.SimpleEntry<>(parameter.substring(0, eq).trim(),
                        parameter.substring(eq + 1).trim()));
            }
            String encoded = McaSources.encodeCommandLine(pairs);
            return System.getenv().containsKey("JMCA_MCA_mpi_warmup_ms")
                    ? Map.of(Launcher.ENV_MCA, encoded)
                    : Map.of(Launcher.ENV_MCA, encoded, "JMCA_MCA_mpi_warmup_ms", "0");
        }

        /** On one rank: Init, a new instance of the test class (the rank's copy), the method, Finalize. */
        private void runRank(int rank, ClassLoader loader) throws Throwable {
            Class<?> mpi = Class.forName("mpi.MPI", true, loader);
            Class<?> testClass = Class.forName(method.getDeclaringClass().getName(), true, loader);
            try {
                mpi.getMethod("Init", String[].class).invoke(null, (Object) new String[0]);
                Constructor<?> constructor = testClass.getDeclaredConstructor();
                constructor.setAccessible(true);
                Method own = testClass.getDeclaredMethod(method.getName());
                own.setAccessible(true);
                own.invoke(constructor.newInstance());
                mpi.getMethod("Finalize").invoke(null);
            } catch (InvocationTargetException e) {
                failures[rank] = e.getCause();
                throw e.getCause();
            }
        }

        @Override
        public void line(int rank, boolean stderr, String line) {
            (stderr ? System.err : System.out).println("[rank " + rank + "] " + line);
        }

        @Override
        public void exited(int rank, int status) {
        }

        @Override
        public void stopping(String why) {
            if (stopping == null) { // the first reason is the cause
                stopping = why;
            }
        }
    }
}
