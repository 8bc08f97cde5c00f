/**
 * The driver of {@code bench/compare}: JMCA against Open MPI, interleaved rounds, medians, ratios,
 * CSV and plots.
 */
package bench.compare;
