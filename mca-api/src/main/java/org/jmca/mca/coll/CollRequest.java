package org.jmca.mca.coll;

import java.util.function.BooleanSupplier;

/**
 * A collective operation in flight. It advances when it is tested: the blocking form tests it
 * between progress turns, the non-blocking form also from a progress callback.
 */
public interface CollRequest extends BooleanSupplier {

    /** A request that is already complete. */
    CollRequest COMPLETE = () -> true;

    /** Advances the operation as far as it can without waiting; true once it is complete. */
    boolean test();

    @Override
    default boolean getAsBoolean() {
        return test();
    }
}
