package org.jmca.junit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.TestTemplate;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs a test method as an MPI job: on every rank, as threads of the test JVM, each in a class
 * loader of its own (so {@code MPI.COMM_WORLD} and the class's statics are the rank's). The
 * extension calls {@code MPI.Init} before the method and {@code MPI.Finalize} after it; the method
 * runs on a new instance of its class in every rank (made with the no-argument constructor; JUnit's
 * own instance, and what its {@code @BeforeEach} methods set, stay outside the job).
 *
 * <pre>{@code
 * @MpiTest(ranks = {2, 4})
 * void allreduceSumsTheRanks() throws MPIException {
 *     int[] sum = {MPI.COMM_WORLD.getRank()};
 *     MPI.COMM_WORLD.allReduce(sum, 1, MPI.INT, MPI.SUM);
 *     int n = MPI.COMM_WORLD.getSize();
 *     assertEquals(n * (n - 1) / 2, sum[0]);
 * }
 * }</pre>
 *
 * A failed assertion (any exception) fails the test with the rank that failed; a job that runs
 * longer than {@link #timeoutSeconds()} fails with the stack of every rank.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@TestTemplate
@ExtendWith(MpiTestExtension.class)
public @interface MpiTest {
    /** The numbers of ranks: the method runs once for each. */
    int[] ranks() default {2};

    /** MCA parameters as {@code name=value} (as {@code --mca name value}): {@code "btl=self,thread"}. */
    String[] mca() default {};

    /** How long one run may take before it fails with every rank's stack. */
    int timeoutSeconds() default 60;
}
