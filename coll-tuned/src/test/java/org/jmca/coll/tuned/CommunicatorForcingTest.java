package org.jmca.coll.tuned;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.contract.TestCommunicator;
import org.jmca.mca.param.ParameterRegistry;
import org.junit.jupiter.api.Test;

/**
 * The info key coll_tuned_&lt;coll&gt; forces one communicator's algorithm, coll_tuned_use_dynamic_rules=false
 * keeps it to the fixed rules, and each names itself when wrong.
 */
class CommunicatorForcingTest {

    private static CollModule module(Map<String, String> hints) {
        TunedCollComponent component = new TunedCollComponent();
        component.registerParameters(new ParameterRegistry(List.of()).prefixed("coll_tuned"));
        return component.query(TestCommunicator.of("COMM_A", 4, hints)).module();
    }

    @Test
    void theKeyForcesItsCollectiveOnThisCommunicatorAlone() {
        CollModule forced = module(Map.of("coll_tuned_allreduce", "ring", "coll_tuned_bcast", "6:64k"));
        assertThat(forced.describe(CollFunction.ALLREDUCE))
                .isEqualTo("forced 4 (ring) by info key coll_tuned_allreduce=ring of COMM_A");
        assertThat(forced.describe(CollFunction.BCAST)).startsWith("forced 6 (binomial) by info key");
        assertThat(forced.describe(CollFunction.REDUCE)).doesNotStartWith("forced");
        assertThat(module(Map.of()).describe(CollFunction.ALLREDUCE)).doesNotStartWith("forced");
    }

    @Test
    void aCommunicatorMayKeepToTheFixedRules() {
        CollModule fixed = module(Map.of("coll_tuned_use_dynamic_rules", "false", "coll_tuned_allreduce", "ring"));
        assertThat(fixed.describe(CollFunction.ALLREDUCE)).doesNotStartWith("forced");
        assertThatThrownBy(() -> module(Map.of("coll_tuned_use_dynamic_rules", "perhaps")))
                .isInstanceOf(McaException.class)
                .hasMessageStartingWith("info key coll_tuned_use_dynamic_rules=perhaps of COMM_A: 'perhaps' is not a"
                        + " boolean");
    }

    @Test
    void aWrongValueNamesTheKeyTheValueAndTheCommunicator() {
        assertThatThrownBy(() -> module(Map.of("coll_tuned_allreduce", "fastest")))
                .isInstanceOf(McaException.class)
                .hasMessageStartingWith("info key coll_tuned_allreduce=fastest of COMM_A: 'fastest' is not")
                .hasMessageEndingWith("(the value is ALGORITHM[:SEGMENT_SIZE])");
        assertThatThrownBy(() -> module(Map.of("coll_tuned_bcast", "6:lots")))
                .isInstanceOf(McaException.class).hasMessageContaining("'lots' is not a byte count");
    }
}
