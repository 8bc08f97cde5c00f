/**
 * What a rank runs beneath the {@code mpi} API, loaded once per JVM so that thread ranks share
 * its compiled code: the job runtime (the selected components wired for one rank), communicators'
 * point-to-point and collective calls, datatype layouts and user buffers, reductions, error
 * classes (its errors are {@link org.jmca.runtime.MpiError}s), context agreement, dynamic
 * processes and spawn, intercommunicator creation, alltoallw and the neighbourhood collectives
 * written as point-to-point messages, buffered sends, and MPI-IO's two-phase collective access.
 */
package org.jmca.runtime;
