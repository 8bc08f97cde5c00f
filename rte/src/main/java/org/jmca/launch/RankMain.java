package org.jmca.launch;

import java.io.Serializable;

/**
 * What every rank of a job runs, written as a lambda ({@link MpiJob.Builder#main(RankMain, String...)}):
 * {@code args -> { MPI.Init(args); ...; MPI.Finalize(); }}. It travels to the ranks serialized,
 * and each rank makes it again from its own copy of the class that wrote it, so what it captures
 * must be serializable and the class must be on the job's class path (by default it is).
 */
@FunctionalInterface
public interface RankMain extends Serializable {
    void run(String[] args) throws Exception;
}
