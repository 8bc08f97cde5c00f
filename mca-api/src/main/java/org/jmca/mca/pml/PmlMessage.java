package org.jmca.mca.pml;

/** A message a matched probe took out of matching (MPI_Mprobe): only {@link PmlModule#imrecv} receives it. */
public interface PmlMessage {
    /** Its sender, tag and length, as a probe reports them. */
    PmlStatus status();
}
