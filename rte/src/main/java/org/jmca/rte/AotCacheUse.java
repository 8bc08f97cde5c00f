package org.jmca.rte;

import java.util.Map;

/**
 * Whether this JVM runs with the ahead-of-time cache it was started with. The JVM says nothing
 * when it refuses one (jmpirun silences its messages, which would land in the program's output),
 * so the refusal shows only as slower starts and first calls; this says it, once per host of a
 * job, and jmca-info says why.
 */
public final class AotCacheUse {
    /** The cache the launcher started this JVM with. */
    public static final String ENV_CACHE = "JMCA_AOT_CACHE";

    private AotCacheUse() {
    }

    /** Whether this JVM maps a class-data archive (an AOT cache is one): the JVM tells it in java.vm.info. */
    public static boolean sharing() {
        return System.getProperty("java.vm.info", "").contains("sharing");
    }

    /** The warning a host's first rank prints when its JVM refused the cache it was given, else null. */
    public static String warning(Map<String, String> env, JobInfo job) {
        String cache = env.get(ENV_CACHE);
        if (cache == null || job.localRank() != 0 || sharing()) {
            return null;
        }
        return "jmca: warning: the ranks' JVMs on host " + job.hostname() + " run without JMCA's ahead-of-time cache "
                + cache + ", which the JVM refused: they start and reach full speed later. jmca-info says why.";
    }
}
