package org.jmca.btl.gm;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.CrossMemory;
import org.jmca.btl.base.EmulatedDevice;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.gm.GmPort;
import org.jmca.mca.Availability;
import org.jmca.mca.Counter;
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
 * {@code btl/gm}: Myrinet GM. {@code btl_gm_device auto} (the default) declines, with the
 * reason, unless a GM library exists (and then too: its native backend is not built), so no job
 * runs on an emulation it did not ask for; {@code emulated} runs the emulated GM NIC between
 * the job's processes on this host.
 */
public final class GmBtlComponent implements BtlComponent {
    /** GM's library, as Myricom's packages install it. */
    static final String LIBRARY = "libgm.so.0";
    /** The port JMCA opens (GM reserves 0 for the mapper; Open MPI's btl/gm used the first free one from 2). */
    static final int PORT = 2;

    /**
     * Exclusivity as verbs' (above tcp), latency (ns) and bandwidth (Mbit/s) of Myrinet 2000, the
     * eager limit, and the largest fragment the large receive buffers hold (its GM size class).
     */
    static final BtlProperties DEFAULTS = new BtlProperties(1024, 7_000, 2_000, 32L * 1024, 65_527L,
            EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.PUT));

    private enum Device { AUTO, EMULATED }

    /** How the emulated NIC reaches the other nodes: of this host by shared memory, or all over TCP. */
    private enum Wire { AUTO, SOCKET }

    private Param<Device> device;
    private BtlBaseParameters common;
    private Param<Integer> sendTokens;
    private Param<Integer> smallBuffers;
    private Param<Integer> largeBuffers;
    private Param<Long> registrationBase;
    private Param<Long> registrationPerPage;
    private Param<Boolean> registrationCache;
    private Param<Long> registrationCacheSize;
    private Param<Long> pipelineFragSize;
    private Param<Long> ringSize;
    private Param<Wire> wire;

    @Override
    public String name() {
        return "gm";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public List<Counter> counters() {
        return GmBtlModule.COUNTERS;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        device = registrar.register(ParameterSpec.builder("device", ParamType.enumOf(Device.class), Device.AUTO)
                .help("auto: Myrinet GM through its library (libgm), declined where there is none; emulated: the"
                        + " emulated GM NIC, which keeps GM's semantics between the processes of a job on one host.")
                .level(3).build());
        common = BtlBaseParameters.register(registrar, DEFAULTS);
        sendTokens = registrar.register(ParameterSpec.builder("send_tokens", ParamType.INT, 32)
                .help("GM send tokens of the port: fragments and directed sends outstanding at once.").level(5).build());
        smallBuffers = registrar.register(ParameterSpec.builder("small_buffers", ParamType.INT, 16)
                .help("Receive buffers of 4088 bytes kept provided.").level(5).build());
        largeBuffers = registrar.register(ParameterSpec.builder("large_buffers", ParamType.INT, 8)
                .help("Receive buffers of btl_gm_max_send_size kept provided.").level(5).build());
        registrationBase = registrar.register(ParameterSpec.builder("registration_base_ns", ParamType.LONG, 10_000L)
                .help("Emulated NIC: the fixed cost of a registration, in nanoseconds.").level(6).build());
        registrationPerPage = registrar.register(ParameterSpec.builder("registration_ns_per_page", ParamType.LONG, 500L)
                .help("Emulated NIC: the cost of registering each 4 KiB page, in nanoseconds.").level(6).build());
        registrationCache = registrar.register(ParameterSpec.builder("reg_cache", ParamType.BOOL, true)
                .help("Keep registrations for reuse (most recently used first); false deregisters after each use.")
                .level(5).build());
        registrationCacheSize = registrar.register(ParameterSpec.builder("reg_cache_size", ParamType.SIZE, 64L << 20)
                .help("Bytes the registration cache keeps registered when idle.").level(5).build());
        pipelineFragSize = registrar.register(ParameterSpec.builder("rdma_pipeline_frag_size", ParamType.SIZE,
                        128L * 1024)
                .help("Directed sends of a rendezvous go in blocks of this size, each registered just before it is"
                        + " sent (0: the whole buffer at once).").level(5).build());
        ringSize = registrar.register(ParameterSpec.builder("ring_size", ParamType.SIZE, 256L * 1024)
                .help("Emulated NIC: bytes of each inbound ring (a power of two).").level(6).build());
        wire = registrar.register(ParameterSpec.builder("wire", ParamType.enumOf(Wire.class), Wire.AUTO)
                .help("Emulated NIC: auto reaches the nodes of this host through shared memory and those of other"
                        + " hosts over TCP; socket reaches every node over TCP (to test the wire on one host).")
                .level(6).build());
    }

    @Override
    public Availability probe() {
        return switch (device.get()) {
            case EMULATED -> {
                String why = CrossMemory.probe();
                yield why == null ? Availability.AVAILABLE
                        : Availability.unavailable("the emulated GM NIC needs cross-memory copies: " + why);
            }
            case AUTO -> Availability.unavailable((EmulatedDevice.libraryInstalled(LIBRARY) ? LIBRARY + " is installed, but JMCA's native"
                    + " GM backend is not built" : "no Myrinet GM library (" + LIBRARY + ") on this machine")
                    + "; btl_gm_device=emulated runs the emulated GM NIC instead");
        };
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (probe() instanceof Availability.Unavailable(String reason)) {
            throw new McaException("btl/gm cannot run here: " + reason);
        }
        GmSettings settings = settings();
        EmulatedGmPort.Settings nic = nicSettings(settings);
        Path fabric = EmulatedDevice.directory(environment, "gm", "btl/gm: the emulated GM NIC");
        boolean everyNodeByWire = wire.get() == Wire.SOCKET;
        int node = environment.rank() + 1;
        EmulatedGmNic card = new EmulatedGmNic(fabric, node, environment.size(), nic, environment.hostname(),
                new GmWire(node, environment.size(), environment.jobKey()), everyNodeByWire);
        return List.of(new GmBtlModule(environment.rank(), card.open(PORT), card, settings));
    }

    EmulatedGmPort.Settings nicSettings(GmSettings settings) {
        int ring = SharedRing.capacity(ringSize, 16 * 1024, "16 KiB");
        for (Param<Long> cost : List.of(registrationBase, registrationPerPage)) {
            if (cost.get() < 0) {
                throw cost.invalid("must not be negative");
            }
        }
        return new EmulatedGmPort.Settings(ring, sendTokens.get(), settings.smallBuffers() + settings.largeBuffers(),
                registrationBase.get(), registrationPerPage.get());
    }

    GmSettings settings() {
        for (Param<Integer> count : List.of(sendTokens, smallBuffers, largeBuffers)) {
            if (count.get() < 1) {
                throw count.invalid("must be positive");
            }
        }
        BtlProperties properties = common.properties();
        if (properties.maxSendSize() + 1 > GmPort.maxLengthForSize(24)) {
            throw common.maxSendSize().invalid("must be below 16 MiB");
        }
        return new GmSettings(properties, smallBuffers.get(), largeBuffers.get(),
                registrationCache.get(), registrationCacheSize.get(), pipelineFragSize.get());
    }

}
