/**
 * JMH micro-benchmarks of single calls.
 */
package bench.jmh;
