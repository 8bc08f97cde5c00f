package org.jmca.launch;

/** A job ended because a rank failed: which rank (or -1 if none did alone), the job's status, and why. */
public final class RankFailedException extends Exception {
    private final int rank;
    private final int status;
    private final transient MpiJob.Result result;

    RankFailedException(int rank, int status, String why, MpiJob.Result result) {
        super((rank >= 0 ? "rank " + rank + " failed: " : "the job failed: ") + why + " (status " + status + ")");
        this.rank = rank;
        this.status = status;
        this.result = result;
    }

    /** The rank whose failure ended the job, or -1 if none did alone. */
    public int rank() {
        return rank;
    }

    /** The job's status, as jmpirun would return it. */
    public int status() {
        return status;
    }

    /** What every rank wrote and how each ended. */
    public MpiJob.Result result() {
        return result;
    }
}
