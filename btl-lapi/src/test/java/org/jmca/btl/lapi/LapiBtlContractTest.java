package org.jmca.btl.lapi;

import java.util.ArrayList;
import java.util.List;
import org.jmca.common.lapi.LapiMode;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.contract.BtlContractTest;
import org.junit.jupiter.api.AfterEach;

/** The BTL contract over btl/lapi, on the emulated switch in polling mode. */
class LapiBtlContractTest extends BtlContractTest {
    private final List<LapiTasks> jobs = new ArrayList<>();

    @Override
    protected List<BtlModule> createConnected(int size) {
        LapiTasks job = new LapiTasks(size, LapiTasks.settings(LapiMode.POLLING));
        jobs.add(job);
        List<BtlModule> modules = new ArrayList<>();
        for (LapiTask task : job.tasks) {
            modules.add(new LapiBtlModule(task, new BtlProperties(1024, 3_000, 40_000, 4096, 16 * 1024,
                    LapiBtlComponent.DEFAULTS.flags())));
        }
        List<Peer> peers = job.peers();
        modules.forEach(m -> m.addPeers(peers));
        return modules;
    }

    /** LAPI calls the processes of a job tasks; a module's task is its rank. */
    @Override
    protected String peerName(int rank) {
        return "task " + rank;
    }

    @AfterEach
    void removeFabrics() {
        jobs.forEach(LapiTasks::close);
    }
}
