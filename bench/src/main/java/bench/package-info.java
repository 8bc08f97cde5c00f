/**
 * OSU-style benchmarks and the papers' studies, written against the {@code mpi} API alone; the
 * scripts beside them are listed in {@code bench/README.md}.
 */
package bench;
