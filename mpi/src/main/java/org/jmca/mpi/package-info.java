/**
 * What JMCA runs on the public {@code mpi} API itself, and is no part of it: MPI.Init's warm-up,
 * which makes the calls applications make first so that the JIT compiles them before the
 * program does (and, in {@code training}, the build's AOT training run). Not exported; a thread
 * rank gets its own copy of it with its own {@code mpi}.
 */
package org.jmca.mpi;
