package org.jmca.rte.launcher;

import java.util.Map;

/**
 * What {@code System.exit}, {@code Runtime.exit}, {@code Runtime.halt} and {@code System.getenv}
 * become in the classes of a rank that is a thread ({@link RankClassLoader} rewrites the calls): an
 * exit ends the rank, not the JVM, and the environment is the rank's own. Called from anywhere
 * else, they do what the JDK's do.
 */
public final class RankSystem {
    private static final StackWalker WALKER = StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE);

    private RankSystem() {
    }

    /** Thrown by a thread rank's exit; its job reports the rank's status. */
    public static final class RankExit extends Error {
        private final int status;

        RankExit(int status) {
            super("System.exit(" + status + ")", null, false, false);
            this.status = status;
        }

        public int status() {
            return status;
        }
    }

    public static void exit(int status) {
        RankClassLoader rank = rankOf(WALKER.getCallerClass());
        if (rank == null) {
            System.exit(status);
        }
        throw exiting(rank, status);
    }

    public static void exit(Runtime runtime, int status) {
        RankClassLoader rank = rankOf(WALKER.getCallerClass());
        if (rank == null) {
            runtime.exit(status);
        }
        throw exiting(rank, status);
    }

    public static void halt(Runtime runtime, int status) {
        RankClassLoader rank = rankOf(WALKER.getCallerClass());
        if (rank == null) {
            runtime.halt(status);
        }
        throw exiting(rank, status);
    }

    public static String getenv(String name) {
        RankClassLoader rank = rankOf(WALKER.getCallerClass());
        return rank == null ? System.getenv(name) : rank.environment().get(name);
    }

    public static Map<String, String> getenv() {
        RankClassLoader rank = rankOf(WALKER.getCallerClass());
        return rank == null ? System.getenv() : rank.environment();
    }

    /** Tells the rank's job (a thread other than the rank's first may exit it) and unwinds this thread. */
    private static RankExit exiting(RankClassLoader rank, int status) {
        rank.exiting(status);
        return new RankExit(status);
    }

    private static RankClassLoader rankOf(Class<?> caller) {
        return caller.getClassLoader() instanceof RankClassLoader rank ? rank : null;
    }
}
