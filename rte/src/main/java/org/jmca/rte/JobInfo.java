package org.jmca.rte;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Who this process is in its job.
 *
 * @param rank      its rank
 * @param size      the number of processes
 * @param localSize the number of processes on this host
 * @param localRank this process's place among them
 * @param jobId     unique to the job
 * @param jobKey    the job's secret, presented by every connection between its processes
 * @param hostname  this host's name
 * @param sessionDirectory a job-private directory the launcher removes at the end, or null
 */
public record JobInfo(int rank, int size, int localSize, int localRank, String jobId, byte[] jobKey, String hostname,
                      Path sessionDirectory) {
    public JobInfo {
        Objects.requireNonNull(jobId, "jobId");
        Objects.requireNonNull(hostname, "hostname");
        jobKey = jobKey.clone();
        if (size < 1 || rank < 0 || rank >= size || localSize < 1 || localSize > size || localRank < 0
                || localRank >= localSize) {
            throw new IllegalArgumentException("rank=" + rank + " size=" + size + " localSize=" + localSize
                    + " localRank=" + localRank + " are inconsistent");
        }
    }

    @Override
    public byte[] jobKey() {
        return jobKey.clone();
    }
}
