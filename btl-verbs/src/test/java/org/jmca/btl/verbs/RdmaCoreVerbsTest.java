package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import org.junit.jupiter.api.Test;

/** The rdma-core binding on a machine without an HCA: every verb links, and opening says why it cannot. */
class RdmaCoreVerbsTest {

    @Test
    void withoutADeviceOpeningFailsWithTheLibrarysReasonAfterLinkingEveryVerb() {
        RdmaCore.Survey survey = RdmaCore.surveyLibrary();
        assumeFalse(survey.whyNone() != null && survey.whyNone().contains("not installed"), survey.whyNone());
        assumeTrue(survey.devices().isEmpty(), "this machine has an RDMA device: RdmaCoreContractTest runs on it");
        // Opening links every call of the binding first (a misspelt symbol fails here, not as a VerbsException).
        assertThatThrownBy(() -> RdmaCoreVerbs.open(null)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("ibv_get_device_list");
    }
}
