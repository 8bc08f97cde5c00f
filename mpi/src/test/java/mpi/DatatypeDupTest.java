package mpi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** MPI_Type_dup: a derived type of the same layout, committed as its original, that may be freed. */
class DatatypeDupTest {

    @Test
    void aDupOfAPredefinedTypeIsACommittedDerivedTypeThatMayBeFreed() throws MPIException {
        Datatype copy = MPI.INT.dup();
        assertThat(copy.getSize()).isEqualTo(4);
        assertThat(copy.isDerived()).isTrue();
        copy.free();
        assertThatThrownBy(copy::free).isInstanceOf(MPIException.class).hasMessageContaining("has been freed");
        assertThatThrownBy(MPI.INT::free).isInstanceOf(MPIException.class).hasMessageContaining("cannot be freed");
    }

    @Test
    void aDupOfAnUncommittedTypeIsUncommitted() throws MPIException {
        Datatype vector = Datatype.createVector(2, 1, 2, MPI.DOUBLE);
        assertThat(Datatype.use(vector.dup()).isCommitted()).isFalse();
        vector.commit();
        assertThat(Datatype.use(vector.dup()).isCommitted()).isTrue();
    }
}
