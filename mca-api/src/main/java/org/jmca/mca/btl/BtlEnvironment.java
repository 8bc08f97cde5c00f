package org.jmca.mca.btl;

/**
 * What a BTL needs to know about its process when it makes modules.
 *
 * @param rank     this process's rank in the job
 * @param size     the number of processes in the job
 * @param hostname the host, to tell local peers from remote ones
 * @param jobId    unique to the job, for names of shared files and the key checked on connect
 */
public record BtlEnvironment(int rank, int size, String hostname, String jobId) {
}
