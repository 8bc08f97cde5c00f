package org.jmca.coll.sm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code coll/sm}: collectives among ranks of one host written directly on shared memory (see
 * {@link SmCollLayout}). Serves intracommunicators of two ranks or more that all run on this host,
 * above coll/tuned, which keeps what does not fit a slot.
 */
public final class SmCollComponent implements CollComponent {
    private Param<Long> slotSize;
    private Param<String> directory;
    /** How many communicators this rank made per context and first rank: names the segments apart. */
    private final Map<String, Integer> generations = new HashMap<>();

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
                        + " directory (jmpirun does). Each file is removed once every rank has mapped it.")
                .level(5)
                .build());
    }

    @Override
    public CollOffer query(CollCommunicator comm) {
        if (comm.size() < 2) {
            return CollOffer.declined("serves communicators of 2 ranks or more; this one has " + comm.size());
        }
        String host = comm.host(0);
        for (int r = 1; r < comm.size(); r++) {
            if (!comm.host(r).equals(host)) {
                return CollOffer.declined("ranks 0 and " + r + " run on different hosts (" + host + ", " + comm.host(r)
                        + "); coll/sm serves communicators within one host");
            }
        }
        long slot = slotSize.get();
        if (slot < SmCollLayout.BLOCK || slot % SmCollLayout.BLOCK != 0 || slot > Integer.MAX_VALUE) {
            throw new McaException("coll_sm_slot_size=" + slot + " (" + slotSize.source() + ") must be a positive"
                    + " multiple of " + SmCollLayout.BLOCK + " below 2 GiB");
        }
        SmCollLayout layout = new SmCollLayout(comm.size(), slot);
        if (comm.progressEngine() == null) {
            return CollOffer.declined("no progress engine: a tool's communicator, not a job's");
        }
        Path dir = comm.sessionDirectory() != null ? comm.sessionDirectory() : Path.of(directory.get());
        if (comm.threadJob() == null && !Files.isDirectory(dir)) {
            return CollOffer.declined(dir + " is not a directory (coll_sm_directory=" + directory.get() + ", "
                    + directory.source() + ")");
        }
        int generation = generations.merge(comm.contextId() + "." + comm.jobRank(0), 1, Integer::sum);
        return CollOffer.of(new SmCollModule(comm, layout, SmCollSegment.attach(comm, layout, dir, generation)));
    }
}
