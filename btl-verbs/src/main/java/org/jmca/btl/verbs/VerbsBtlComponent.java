package org.jmca.btl.verbs;

import java.util.List;
import org.jmca.mca.Availability;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;

/**
 * {@code btl/verbs}: InfiniBand verbs through rdma-core. So far it surveys the machine's RDMA
 * devices and declines, saying why: without a device, that there is none; with one, that the
 * transport over it is not built yet (issue 15). It is never selected, so no job depends on it.
 */
public final class VerbsBtlComponent implements BtlComponent {

    @Override
    public String name() {
        return "verbs";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public Availability probe() {
        RdmaCore.Survey survey = RdmaCore.survey();
        if (survey.devices().isEmpty()) {
            return Availability.unavailable(survey.whyNone());
        }
        return Availability.unavailable("found " + String.join(", ", survey.devices())
                + ", but the verbs transport over rdma-core is not built yet");
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        String why = probe() instanceof Availability.Unavailable(String reason) ? reason : "no transport yet";
        throw new McaException("btl/verbs cannot run here: " + why);
    }
}
