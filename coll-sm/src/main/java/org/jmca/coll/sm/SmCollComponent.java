package org.jmca.coll.sm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Set;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollTable;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code coll/sm}: collectives among ranks of one host written directly on shared memory (see
 * {@link SmCollLayout}), above coll/tuned, which keeps what does not fit a slot. A communicator
 * within one host gets {@link SmCollModule}; one spanning hosts, {@link TwoLevelModule}.
 */
public final class SmCollComponent implements CollComponent {
    private Param<Long> slotSize;
    private Param<String> directory;

    @Override
    public String name() {
        return "sm";
    }

    @Override
    public int defaultPriority() {
        return 40;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        slotSize = registrar.register(ParameterSpec.builder("slot_size", ParamType.SIZE, 32L * 1024)
                .help("Bytes each rank writes per call: a rank's block (times the ranks for scatter, alltoall and"
                        + " reduce_scatter_block). Larger calls go to the component below (coll/tuned). A multiple"
                        + " of 128; the communicator's segment takes 2 slots per rank.")
                .level(4)
                .build());
        directory = registrar.register(ParameterSpec.builder("directory", ParamType.STRING, "/dev/shm")
                .help("Where the segment files of processes go when no launcher gives a job-private session"
                        + " directory (jmpirun does). Each file is removed once every rank has mapped it; one"
                        + " a killed job left, mapped by no process, goes with the next job's first communicator.")
                .level(5)
                .build());
    }

    @Override
    public CollOffer query(CollCommunicator comm) {
        if (comm.size() < 2) {
            return CollOffer.declined("serves communicators of 2 ranks or more; this one has " + comm.size());
        }
        boolean oneHost = true;
        for (int r = 1; r < comm.size(); r++) {
            oneHost &= comm.host(r).equals(comm.host(0));
        }
        long slot = slotSize.get();
        if (slot < SmCollLayout.BLOCK || slot % SmCollLayout.BLOCK != 0 || slot > Integer.MAX_VALUE) {
            throw slotSize.invalid("must be a positive"
                    + " multiple of " + SmCollLayout.BLOCK + " below 2 GiB");
        }
        if (comm.progressEngine() == null) {
            return CollOffer.of(new Described(slot)); // a tool's communicator (jmca-info): what a job would get
        }
        if (comm.spansJobs()) {
            return CollOffer.declined("ranks of more than one job (connected or spawned), which share no session"
                    + " directory or memory");
        }
        Path dir = comm.sessionDirectory() != null ? comm.sessionDirectory() : Path.of(directory.get());
        if (comm.threadJob() == null && !Files.isDirectory(dir)) {
            return CollOffer.declined(dir + " is not a directory (coll_sm_directory=" + directory.get() + ", "
                    + directory.source() + ")");
        }
        if (oneHost) {
            SmCollLayout layout = new SmCollLayout(comm.size(), slot);
            return CollOffer.of(new SmCollModule(comm, layout, SmCollSegment.attach(comm, layout, dir)));
        }
        HostGroups groups = new HostGroups(comm);
        if (groups.hosts.size() == comm.size()) {
            return CollOffer.declined("every rank on a host of its own (" + comm.size() + " hosts): no memory to share");
        }
        CollCommunicator local = groups.local();
        SmCollLayout localLayout = new SmCollLayout(local.size(), slot);
        SmCollModule host = local.size() < 2 ? null
                : new SmCollModule(local, localLayout, SmCollSegment.attach(local, localLayout, dir));
        return CollOffer.of(new TwoLevelModule(comm, groups, host, slot));
    }

    /** The module a tool's communicator gets: it says what it would serve and runs nothing. */
    private static final class Described implements CollModule {
        private final long slot;
        private CollTable below;

        Described(long slot) {
            this.slot = slot;
        }

        @Override
        public Set<CollFunction> provides() {
            return SmCollModule.FUNCTIONS;
        }

        @Override
        public void enable(CollTable below) {
            this.below = below;
        }

        @Override
        public String describe(CollFunction function) {
            return SmCollModule.describe(slot, below, function);
        }

        @Override
        public CollRequest start(CollFunction function, CollCall call) {
            throw new IllegalStateException("coll/sm: a tool's communicator runs no collectives");
        }
    }
}
