package org.jmca.btl.verbs;

import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The verbs contract against rdma-core's device: two contexts on port 1 of the first HCA, which
 * loops traffic between them. Runs where an InfiniBand HCA is active; elsewhere every test is
 * skipped with the survey's reason (this repository's CI machines have none).
 */
class RdmaCoreContractTest extends VerbsContract {
    private RdmaCoreVerbs first;
    private RdmaCoreVerbs second;

    @Override
    protected Verbs[] openPair() {
        RdmaCore.Survey survey = RdmaCore.survey();
        assumeTrue(!survey.devices().isEmpty(), survey.whyNone());
        first = RdmaCoreVerbs.open(null);
        second = RdmaCoreVerbs.open(null);
        return new Verbs[] {first, second};
    }

    @Override
    protected void closePair() {
        if (first != null) {
            first.close();
            second.close();
        }
    }

    /** A real peer's death cannot be staged from here either. */
    @Override
    protected boolean peerDies(Verbs v) {
        return false;
    }

    /** A real link cannot be taken down from here: the tests that need it are skipped. */
    @Override
    protected boolean linkDown(Verbs v, boolean down) {
        return false;
    }
}
