/**
 * A JUnit 5 extension: {@code @MpiTest} runs a test method as an MPI job of thread ranks inside
 * the test JVM, each rank with its own {@code mpi} classes.
 */
package org.jmca.junit;
