package org.jmca.coll.gm;

import java.nio.file.Path;
import java.util.List;
import org.jmca.common.gm.GmNic;
import org.jmca.common.gm.GmPort;
import org.jmca.mca.McaException;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.progress.ProgressEngine;

/**
 * {@code coll/gm}: collectives written on a GM port of their own (the CollGM paper), on the NIC
 * btl/gm runs. Serves a communicator of two ranks or more whose ranks all reach each other over
 * GM, at priority 40, above coll/tuned; says why otherwise (btl/gm not running, a rank off GM).
 */
public final class GmCollComponent implements CollComponent {
    private Param<Long> eagerLimit;
    private Param<Integer> window;
    private Param<Long> pipelineBlock;
    private Param<Boolean> forward;
    private Param<Integer> fanout;
    private Param<String> selectionMap;
    private Param<Integer> sendTokens;
    private Param<Integer> smallBuffers;
    private Param<Integer> largeBuffers;
    private Param<Integer> connectTimeout;
    private SelectionMap map;
    private GmEngine engine;
    private ProgressEngine.Registration progressRegistration;

    @Override
    public String name() {
        return "gm";
    }

    @Override
    public int defaultPriority() {
        return 40;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        eagerLimit = registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, 64L * 1024)
                .help("Largest message sent eagerly, copied into pre-registered buffers (the paper's 64 KiB"
                        + " segments); larger ones are written by directed sends.").level(4).build());
        window = registrar.register(ParameterSpec.builder("window", ParamType.INT, 8)
                .help("Messages a sender may be ahead of what its receiver has taken, in one call; every half"
                        + " window the sender asks for an acknowledgement.").level(5).build());
        pipelineBlock = registrar.register(ParameterSpec.builder("rdma_pipeline_block", ParamType.SIZE, 128L * 1024)
                .help("Directed-send transfers register the user's buffer in blocks of this size, each while the one"
                        + " before is transferred (0: the whole buffer at once).").level(5).build());
        forward = registrar.register(ParameterSpec.builder("forward_from_receive_buffer", ParamType.BOOL, true)
                .help("Broadcast trees forward each segment from the receive buffer it arrived in, before copying it"
                        + " to the user's buffer (false: copy, then send from the user's buffer).").level(5).build());
        fanout = registrar.register(ParameterSpec.builder("tree_fanout", ParamType.INT, 4)
                .help("Fan-out of the nary and chain broadcasts and of coll/base's k-ary algorithms, unless the"
                        + " selection map gives one.").level(5).build());
        selectionMap = registrar.register(ParameterSpec.builder("selection_map", ParamType.STRING, "")
                .help("A HOCON selection map whose collectives replace the shipped map's (jmca-info --tables"
                        + " shows the result); an error in it stops MPI_Init with file and line.").level(4).build());
        sendTokens = registrar.register(ParameterSpec.builder("send_tokens", ParamType.INT, 32)
                .help("GM send tokens of coll/gm's port.").level(6).build());
        smallBuffers = registrar.register(ParameterSpec.builder("small_buffers", ParamType.INT, 16)
                .help("Receive buffers of 8 KiB kept provided (and as many send buffers).").level(6).build());
        largeBuffers = registrar.register(ParameterSpec.builder("large_buffers", ParamType.INT, 8)
                .help("Receive buffers for eager messages of coll_gm_eager_limit kept provided (and as many send"
                        + " buffers).").level(6).build());
        connectTimeout = registrar.register(ParameterSpec.builder("connect_timeout_ms", ParamType.INT, 60_000)
                .help("How long a rank waits for a peer to open its GM port before the call fails.").level(6).build());
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        int size = communicator.size();
        if (size < 2) {
            return CollOffer.declined("serves communicators of 2 ranks or more; this one has " + size);
        }
        if (communicator.threadJob() != null) {
            // one NIC is published per JVM; the ranks' ports on it never met (the first barrier waited 60 s)
            return CollOffer.declined("the ranks are threads of one JVM, and coll/gm opens a GM port per process");
        }
        GmNic nic = GmNic.published().orElse(null);
        if (nic == null) {
            return CollOffer.declined("btl/gm is not running in this process, and coll/gm opens its GM port on"
                    + " btl/gm's NIC (--mca btl self,gm --mca btl_gm_device emulated)");
        }
        int[] nodes = new int[size];
        int[] jobRanks = new int[size];
        for (int r = 0; r < size; r++) {
            jobRanks[r] = communicator.jobRank(r);
            nodes[r] = nic.nodeOf(jobRanks[r]);
            if (nodes[r] < 0) {
                return CollOffer.declined("rank " + r + " (job rank " + jobRanks[r] + ") cannot be reached over GM"
                        + " from " + nic.description());
            }
        }
        GmComm comm = new GmComm(communicator.name(), communicator.rank(), size, communicator.contextId(), nodes,
                jobRanks);
        return CollOffer.of(new GmCollModule(engine(nic, communicator.progressEngine()), communicator, comm,
                map().forcedBy(communicator)));
    }

    private synchronized GmEngine engine(GmNic nic, ProgressEngine progress) {
        if (engine == null) {
            engine = new GmEngine(nic, settings());
            if (progress != null) {
                progressRegistration = progress.register(engine::progressBetweenCalls, ProgressEngine.Priority.LOW);
            }
        }
        return engine;
    }

    /** The selection map, read once; a malformed one throws (file, line, reason) at the first communicator. */
    private synchronized SelectionMap map() {
        if (map == null) {
            String file = selectionMap.get().strip();
            map = SelectionMap.load(file.isEmpty() ? null : Path.of(file));
        }
        return map;
    }

    GmSettings settings() {
        long eager = eagerLimit.get();
        if (eager < 0 || eager + 48 > GmPort.maxLengthForSize(20)) {
            throw eagerLimit.invalid("must be between 0 and 1 MiB");
        }
        for (Param<Integer> count : List.of(window, fanout, sendTokens, smallBuffers, largeBuffers, connectTimeout)) {
            if (count.get() < 1) {
                throw count.invalid("must be positive");
            }
        }
        if (pipelineBlock.get() < 0) {
            throw new McaException("coll_gm_rdma_pipeline_block=" + pipelineBlock.get() + " ("
                    + pipelineBlock.source() + ") must not be negative");
        }
        return new GmSettings(eager, window.get(), pipelineBlock.get(), forward.get(), fanout.get(), sendTokens.get(),
                smallBuffers.get(), largeBuffers.get(), connectTimeout.get() * 1_000_000L);
    }

    @Override
    public List<String> tables() {
        return map().lines();
    }

    @Override
    public synchronized void close() {
        if (progressRegistration != null) {
            progressRegistration.close();
        }
        if (engine != null) {
            engine.close();
            engine = null;
        }
    }
}
