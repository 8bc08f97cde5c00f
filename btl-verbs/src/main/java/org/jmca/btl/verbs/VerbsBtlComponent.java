package org.jmca.btl.verbs;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.EmulatedDevice;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.Availability;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/verbs}: InfiniBand verbs. {@code btl_verbs_device} chooses the device: {@code auto}
 * (the default) takes an HCA that rdma-core reports, and declines with the reason where there is
 * none — so a job never runs on an emulation it did not ask for; {@code soft} runs the software
 * verbs device between the job's processes on this host.
 */
public final class VerbsBtlComponent implements BtlComponent {
    /**
     * Exclusivity above tcp, latency (ns) and bandwidth (Mbit/s) of an InfiniBand HCA, the eager
     * limit, and the largest fragment (the size of every send and receive buffer).
     */
    static final BtlProperties DEFAULTS = new BtlProperties(1024, 2_000, 40_000, 12L * 1024, 16L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.GET, BtlProperties.Flag.PUT));

    private enum Device { AUTO, SOFT }

    /** How the software device reaches other ports: of this host by shared memory, or all by socket. */
    private enum SoftWire { AUTO, SOCKET }

    private Param<Device> device;
    private BtlBaseParameters common;
    private Param<Integer> receiveBuffers;
    private Param<Integer> sendBuffers;
    private Param<Integer> maxConnections;
    private Param<String> connectionPolicy;
    private Param<Boolean> registrationCache;
    private Param<Long> registrationCacheSize;
    private Param<Long> pipelineFragSize;
    private Param<Integer> cmRetry;
    private Param<Long> softRingSize;
    private Param<Double> softUdLoss;
    private Param<Double> softUdDuplicate;
    private Param<Double> softUdReorder;
    private Param<Integer> softSeed;
    private Param<SoftWire> softWire;
    private Param<Integer> verbose;

    @Override
    public String name() {
        return "verbs";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        device = registrar.register(ParameterSpec.builder("device", ParamType.enumOf(Device.class), Device.AUTO)
                .help("auto: an InfiniBand device found by rdma-core; soft: the software verbs device, which keeps"
                        + " the verbs semantics between the processes of a job (for machines without an HCA): shared"
                        + " memory on a host, a socket between hosts.")
                .level(3).build());
        common = BtlBaseParameters.register(registrar, DEFAULTS);
        receiveBuffers = registrar.register(ParameterSpec.builder("receive_buffers", ParamType.INT, 8)
                .help("Receive buffers pre-posted per connection: the credits a peer has.").level(4).build());
        sendBuffers = registrar.register(ParameterSpec.builder("send_buffers", ParamType.INT, 64)
                .help("Registered send buffers of the process, shared by its connections.").level(5).build());
        maxConnections = registrar.register(ParameterSpec.builder("max_conn", ParamType.INT, 0)
                .help("Most RC connections a process keeps open (0: no limit). A new one past it tears down another,"
                        + " chosen by btl_verbs_conn_policy, after its pending work has flushed.").level(3).build());
        connectionPolicy = registrar.register(ParameterSpec.builder("conn_policy", ParamType.STRING, "lru")
                .help("Which connection is torn down at btl_verbs_max_conn: lru (least recently used) or lru-m (the"
                        + " least recently used among the peers torn down the fewest times).").level(3).build());
        registrationCache = registrar.register(ParameterSpec.builder("reg_cache", ParamType.BOOL, true)
                .help("Keep memory registrations for reuse (false: register and deregister every time).").level(4)
                .build());
        registrationCacheSize = registrar.register(ParameterSpec.builder("reg_cache_size", ParamType.SIZE,
                        256L * 1024 * 1024)
                .help("Idle registered bytes the cache keeps at most; past it the least recently used go.").level(5)
                .build());
        pipelineFragSize = registrar.register(ParameterSpec.builder("rdma_pipeline_frag_size", ParamType.SIZE,
                        128L * 1024)
                .help("A large receive buffer is registered in blocks of this size, each read as soon as it is"
                        + " registered (0: the whole buffer at once).").level(4).build());
        cmRetry = registrar.register(ParameterSpec.builder("cm_retry_ms", ParamType.INT, 5)
                .help("Milliseconds a connection-manager datagram waits for its answer before it is sent again.")
                .level(5).build());
        softRingSize = registrar.register(ParameterSpec.builder("soft_ring_size", ParamType.SIZE, 128L * 1024)
                .help("Software device: bytes of each inbound ring (a power of two; at least 4 x btl_verbs_max_send_size"
                        + " plus headers).").level(6).build());
        softUdLoss = registrar.register(ParameterSpec.builder("soft_ud_loss", ParamType.DOUBLE, 0.0)
                .help("Software device: probability that a UD datagram is lost (fault injection).").level(6).build());
        softUdDuplicate = registrar.register(ParameterSpec.builder("soft_ud_duplicate", ParamType.DOUBLE, 0.0)
                .help("Software device: probability that a UD datagram arrives twice.").level(6).build());
        softUdReorder = registrar.register(ParameterSpec.builder("soft_ud_reorder", ParamType.DOUBLE, 0.0)
                .help("Software device: probability that a UD datagram is held back behind the next one.").level(6)
                .build());
        verbose = registrar.register(ParameterSpec.builder("verbose", ParamType.INT, 0)
                .help("1: print every connection's state changes and connection-manager message on stderr.").level(5)
                .build());
        softWire = registrar.register(ParameterSpec.builder("soft_wire", ParamType.enumOf(SoftWire.class), SoftWire.AUTO)
                .help("Software device: auto reaches ports on this host through shared memory and ports on other hosts"
                        + " by socket; socket reaches every port by socket (to exercise the wire on one host).")
                .level(6).build());
        softSeed = registrar.register(ParameterSpec.builder("soft_seed", ParamType.INT, 1)
                .help("Software device: seed of the injected faults (each rank adds its rank).").level(6).build());
    }

    @Override
    public List<org.jmca.mca.Counter> counters() {
        return VerbsBtlModule.COUNTERS;
    }

    @Override
    public Availability probe() {
        switch (device.get()) {
            case SOFT -> {
                String why = SoftVerbs.probe();
                return why == null ? Availability.AVAILABLE
                        : Availability.unavailable("the software verbs device needs cross-memory copies: " + why);
            }
            case AUTO -> {
                RdmaCore.Survey survey = RdmaCore.survey();
                if (survey.devices().isEmpty()) {
                    return Availability.unavailable(survey.whyNone()
                            + "; btl_verbs_device=soft runs the software verbs device instead");
                }
                try (RdmaCoreVerbs hca = RdmaCoreVerbs.open(null)) {
                    return Availability.AVAILABLE;
                } catch (VerbsException e) {
                    return Availability.unavailable("found " + String.join(", ", survey.devices()) + ", but "
                            + e.getMessage() + "; btl_verbs_device=soft runs the software verbs device instead");
                }
            }
        }
        throw new AssertionError(device.get());
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (probe() instanceof Availability.Unavailable(String reason)) {
            throw new McaException("btl/verbs cannot run here: " + reason);
        }
        VerbsSettings settings = settings();
        if (device.get() == Device.AUTO) {
            return List.of(new VerbsBtlModule(environment.rank(), environment.size(), RdmaCoreVerbs.open(null),
                    settings));
        }
        Path fabric = EmulatedDevice.directory(environment, "verbs", "btl/verbs: the software device");
        SoftFaults faults = new SoftFaults(softSeed.get() + environment.rank(), softUdLoss.get(), softUdDuplicate.get(),
                softUdReorder.get());
        boolean socketToEveryPort = softWire.get() == SoftWire.SOCKET;
        SoftVerbs soft = SoftVerbs.open(fabric, environment.rank() + 1, environment.size(), settings.ringBytes(),
                faults, new SoftVerbs.Network(environment.hostname(), environment.jobKey(), socketToEveryPort));
        return List.of(new VerbsBtlModule(environment.rank(), environment.size(), soft, settings));
    }

    VerbsSettings settings() {
        int ring = SharedRing.capacity(softRingSize, 1024, "1 KiB");
        BtlProperties properties = common.properties();
        if (properties.maxSendSize() > ring / 4) {
            throw common.maxSendSize().invalid("is above a quarter of " + softRingSize
                    + ", the software device's largest message");
        }
        for (Param<Integer> count : List.of(receiveBuffers, sendBuffers)) {
            if (count.get() < 1) {
                throw count.invalid("must be positive");
            }
        }
        if (maxConnections.get() < 0) {
            throw maxConnections.invalid("must be 0 (no limit) or positive");
        }
        VictimPolicy policy;
        try {
            policy = VictimPolicy.parse(connectionPolicy.get(), connectionPolicy.source().toString());
        } catch (IllegalArgumentException e) {
            throw new McaException(e.getMessage());
        }
        return new VerbsSettings(properties, receiveBuffers.get(), sendBuffers.get(), maxConnections.get(), policy,
                registrationCache.get(), registrationCacheSize.get(), pipelineFragSize.get(), cmRetry.get() * 1_000_000L,
                ring, verbose.get() > 0);
    }
}
