/**
 * The API of Open MPI's Java bindings ({@code mpi.jar}), the same types, methods and constants, so
 * that a program written for them compiles and runs here. A thin layer: it checks arguments,
 * calls the runtime ({@code org.jmca.runtime}) and turns its errors into {@link
 * mpi.MPIException}s through the object's error handler. Where JMCA adds to the API, the
 * differences are listed in the module's test resources ({@code api/differences.txt}).
 */
package mpi;
