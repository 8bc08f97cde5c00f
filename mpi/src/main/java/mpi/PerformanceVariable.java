package mpi;

/**
 * One of JMCA's counters read at one moment, in the manner of an MPI_T performance variable
 * (JMCA's extension: Open MPI's Java bindings have no MPI_T). See {@link MPI#performanceVariables()}.
 *
 * @param name        e.g. "pml_ob1_async_rendezvous"
 * @param description what it counts
 * @param value       its value when read
 */
public record PerformanceVariable(String name, String description, long value) {
}
