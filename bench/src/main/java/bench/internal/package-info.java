/**
 * Probes of one layer (pml/ob1 with btl/sm's software path, the warm-up) outside a job.
 */
package bench.internal;
