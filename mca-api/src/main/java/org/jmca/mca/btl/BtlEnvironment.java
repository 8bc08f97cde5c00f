package org.jmca.mca.btl;

import java.nio.file.Path;
import java.util.Objects;
import java.util.concurrent.ConcurrentMap;
import org.jmca.mca.progress.ProgressEngine;

/**
 * What a BTL needs to know about its process when it makes modules.
 *
 * @param rank     this process's rank in the job
 * @param size     the number of processes in the job
 * @param hostname the host, to tell local peers from remote ones
 * @param jobId    unique to the job: names of shared files, log lines
 * @param jobKey   secret of the job: network transports refuse peers that do not present it
 * @param progress the process's progress engine, for transports that wait
 * @param sessionDirectory a job-private directory the launcher removes when the job ends, for
 *                 files such as shared-memory segments; null when no launcher manages one
 * @param threadJob null unless the job's ranks are threads of this JVM; then one map that all of
 *                 them share for the job's lifetime, where a component's modules find each other
 *                 (the key: the component's name). It goes when the job does, so nothing in it
 *                 outlives the job.
 */
public record BtlEnvironment(int rank, int size, String hostname, String jobId, byte[] jobKey,
                             ProgressEngine progress, Path sessionDirectory, ConcurrentMap<String, Object> threadJob) {
    public BtlEnvironment {
        Objects.requireNonNull(hostname, "hostname");
        Objects.requireNonNull(jobId, "jobId");
        jobKey = jobKey.clone();
        if (rank < 0 || rank >= size) {
            throw new IllegalArgumentException("rank=" + rank + " is outside 0.." + (size - 1));
        }
    }

    /** The environment of a rank that is a process of its own. */
    public BtlEnvironment(int rank, int size, String hostname, String jobId, byte[] jobKey, ProgressEngine progress,
                          Path sessionDirectory) {
        this(rank, size, hostname, jobId, jobKey, progress, sessionDirectory, null);
    }

    @Override
    public byte[] jobKey() {
        return jobKey.clone();
    }
}
