package org.jmca.mca.coll;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jmca.mca.McaException;
import org.jmca.mca.contract.TestCommunicator;
import org.junit.jupiter.api.Test;

/** How a communicator's table is built, for intracommunicators and intercommunicators. */
class CollSelectionTest {

    /** A module that provides {@code functions} and is never started here. */
    private record Module(Set<CollFunction> provides) implements CollModule {
        @Override
        public CollRequest start(CollFunction function, CollCall call) {
            throw new AssertionError("not started in these tests");
        }
    }

    /** Serves intracommunicators only, every function; must not be asked about an intercommunicator. */
    private static final CollComponent WITHIN = new CollComponent() {
        @Override
        public String name() {
            return "within";
        }

        @Override
        public int defaultPriority() {
            return 10;
        }

        @Override
        public CollOffer query(CollCommunicator communicator) {
            assertThat(communicator.isInter()).as("coll/within asked about an intercommunicator").isFalse();
            return CollOffer.of(new Module(EnumSet.allOf(CollFunction.class)));
        }
    };

    /** Serves intercommunicators only, the functions MPI defines between groups. */
    private static final CollComponent BETWEEN = new CollComponent() {
        @Override
        public String name() {
            return "between";
        }

        @Override
        public int defaultPriority() {
            return 40;
        }

        @Override
        public boolean servesIntercommunicators() {
            return true;
        }

        @Override
        public CollOffer query(CollCommunicator communicator) {
            if (!communicator.isInter()) {
                return CollOffer.declined("intercommunicators only");
            }
            Set<CollFunction> functions = EnumSet.allOf(CollFunction.class);
            functions.removeIf(f -> !f.betweenGroups());
            return CollOffer.of(new Module(functions));
        }
    };

    private static CollCommunicator communicator(boolean inter) {
        return new TestCommunicator(inter ? "the intercommunicator" : "the intracommunicator", 2, inter, Map.of());
    }

    private static final List<CollSelection.Candidate> BOTH = List.of(new CollSelection.Candidate(WITHIN, 10),
            new CollSelection.Candidate(BETWEEN, 40));

    @Test
    void anIntracommunicatorGetsEveryFunctionFromTheComponentsThatServeOne() {
        CollSelection.Result result = CollSelection.select(BOTH, communicator(false));

        for (CollFunction function : CollFunction.values()) {
            assertThat(result.table().provider(function)).as("%s", function).get()
                    .extracting(CollTable.Provider::component).isEqualTo("within");
        }
        assertThat(result.components()).contains("coll/between: declined: intercommunicators only");
    }

    @Test
    void anIntercommunicatorIsOfferedOnlyToComponentsThatServeOneAndNeedsNoScans() {
        CollSelection.Result result = CollSelection.select(BOTH, communicator(true));

        for (CollFunction function : CollFunction.values()) {
            if (function.betweenGroups()) {
                assertThat(result.table().provider(function)).as("%s", function).get()
                        .extracting(CollTable.Provider::component).isEqualTo("between");
            } else {
                assertThat(result.table().provider(function)).as("%s", function).isEmpty();
            }
        }
        assertThat(result.components()).contains("coll/within: declined: intracommunicators only");
        assertThat(Arrays.stream(CollFunction.values()).filter(f -> !f.betweenGroups()))
                .containsExactlyInAnyOrder(CollFunction.SCAN, CollFunction.EXSCAN);
    }

    @Test
    void anIntercommunicatorWithoutAComponentThatServesOneSaysWhatIsMissing() {
        assertThatThrownBy(() -> CollSelection.select(List.of(new CollSelection.Candidate(WITHIN, 10)),
                communicator(true)))
                .isInstanceOf(McaException.class)
                .hasMessageStartingWith("the intercommunicator has no coll component for allgather, allgatherv,")
                .hasMessageNotContaining("scan")
                .hasMessageContaining("coll/within: declined: intracommunicators only")
                .hasMessageContaining("coll/inter does: is it in the coll parameter?");
    }
}
