/**
 * The training run behind the ahead-of-time cache the build ships ({@code lib/jmca.aot}): the
 * calls an MPI application makes first, run once at build time on the public API.
 */
package org.jmca.mpi.training;
