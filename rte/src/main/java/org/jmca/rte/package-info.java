/**
 * Wire-up: how a rank learns the job (rank, size, peers and their addresses) from jmpirun's
 * embedded key-value exchange, from PMIx under Open MPI's mpirun or srun, or as a singleton.
 */
package org.jmca.rte;
