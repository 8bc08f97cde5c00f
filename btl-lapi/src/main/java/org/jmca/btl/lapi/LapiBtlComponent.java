package org.jmca.btl.lapi;

import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.EmulatedDevice;
import org.jmca.btl.base.SharedRing;
import org.jmca.common.lapi.LapiMode;
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
 * {@code btl/lapi}: the IBM LAPI model. {@code btl_lapi_device auto} (the default) declines, with
 * the reason, unless IBM's LAPI library exists (and then too: no native backend is built), so no
 * job runs on an emulation it did not ask for; {@code emulated} runs LAPI on the emulated switch
 * (shared memory between the tasks of a host, TCP between hosts) and the BTL over it.
 */
public final class LapiBtlComponent implements BtlComponent {
    /** IBM's LAPI library, as the Parallel Environment installs it. */
    static final String LIBRARY = "liblapi_r.so";

    static final Counter PACKETS_IN = new Counter("btl_lapi_packets_in", "packets the dispatcher placed");
    static final Counter PACKETS_OUT = new Counter("btl_lapi_packets_out", "packets the dispatcher sent");
    static final Counter INTERRUPTS = new Counter("btl_lapi_interrupts",
            "wake-ups of the notification thread (interrupt and lockfree modes)");
    static final Counter DECLINED = new Counter("btl_lapi_declined",
            "wake-ups that found the dispatcher taken and went back to sleep");
    static final Counter CALL_WAITS = new Counter("btl_lapi_call_waits",
            "calls that waited for the global lock (polling and interrupt modes)");
    static final Counter COMPLETIONS_ON_THREAD = new Counter("btl_lapi_completions_on_thread",
            "completion handlers run by the completion-handler thread (interrupt mode)");
    static final Counter HANDED_OVER = new Counter("btl_lapi_handed_over",
            "calls that left their work to the dispatcher's holder (lockfree mode)");

    /**
     * Exclusivity as the other high-speed networks' (above tcp), latency (ns) and bandwidth
     * (Mbit/s) of the emulated switch, the eager limit, and the largest fragment: one active message.
     */
    static final BtlProperties DEFAULTS = new BtlProperties(1024, 3_000, 40_000, 4L * 1024, 64L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.PUT, BtlProperties.Flag.GET));

    private enum Device { AUTO, EMULATED }

    private Param<Device> device;
    private Param<LapiMode> mode;
    private Param<Long> packetSize;
    private Param<Long> ringSize;
    private Param<Integer> tick;
    private Param<Integer> timeout;
    private Param<LapiSettings.Wire> wire;
    private BtlBaseParameters common;

    @Override
    public String name() {
        return "lapi";
    }

    @Override
    public int defaultPriority() {
        return 20;
    }

    @Override
    public List<Counter> counters() {
        return List.of(PACKETS_IN, PACKETS_OUT, INTERRUPTS, DECLINED, CALL_WAITS, COMPLETIONS_ON_THREAD, HANDED_OVER);
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        device = registrar.register(ParameterSpec.builder("device", ParamType.enumOf(Device.class), Device.AUTO)
                .help("auto: IBM LAPI through its library, declined where there is none; emulated: LAPI on JMCA's"
                        + " emulated switch (shared memory between the tasks of a host, TCP between hosts).")
                .level(3).build());
        mode = registrar.register(ParameterSpec.builder("mode", ParamType.enumOf(LapiMode.class), LapiMode.POLLING)
                .help("How the dispatcher progresses: polling (only inside calls, plus the tick), interrupt (as LAPI:"
                        + " a notification thread woken by arrivals, one global lock, a completion-handler thread) or"
                        + " lockfree (calls queue their work without a lock and dispatch only when the dispatcher is"
                        + " free; the notification thread does the rest).")
                .level(3).build());
        packetSize = registrar.register(ParameterSpec.builder("packet_size", ParamType.SIZE, 16L * 1024)
                .help("Bytes of a packet of the emulated switch, its 40-byte header included: the dispatcher"
                        + " packetizes messages into these.").level(5).build());
        ringSize = registrar.register(ParameterSpec.builder("ring_size", ParamType.SIZE, 256L * 1024)
                .help("Bytes of each inbound ring (a power of two, at least 4 packets): packets a sender may have"
                        + " in flight to one task.").level(6).build());
        tick = registrar.register(ParameterSpec.builder("tick", ParamType.INT, 400)
                .help("Milliseconds between runs of the retransmission/timeout thread (LAPI: 400 ms), which also"
                        + " progresses in polling mode.").level(6).build());
        timeout = registrar.register(ParameterSpec.builder("timeout", ParamType.INT, 60)
                .help("Seconds after which an operation not answered fails the task (LAPI's TIMEOUT).").level(6)
                .build());
        wire = registrar.register(ParameterSpec.builder("wire", ParamType.enumOf(LapiSettings.Wire.class),
                        LapiSettings.Wire.AUTO)
                .help("auto reaches the tasks of this host through shared memory and those of other hosts over TCP;"
                        + " socket reaches every task over TCP (to test the wire on one host).").level(6).build());
        common = BtlBaseParameters.register(registrar, DEFAULTS);
    }

    @Override
    public Availability probe() {
        return switch (device.get()) {
            case EMULATED -> Availability.AVAILABLE;
            case AUTO -> Availability.unavailable((EmulatedDevice.libraryInstalled(LIBRARY) ? LIBRARY + " is installed, but JMCA's native"
                    + " LAPI backend is not built" : "no IBM LAPI library (" + LIBRARY + ") on this machine")
                    + "; btl_lapi_device=emulated runs LAPI on the emulated switch instead");
        };
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (probe() instanceof Availability.Unavailable(String reason)) {
            throw new McaException("btl/lapi cannot run here: " + reason);
        }
        LapiSettings settings = settings();
        BtlProperties properties = common.properties();
        if (properties.maxSendSize() > 64L << 20) {
            throw common.maxSendSize().invalid("must be at most 64 MiB");
        }
        Path fabric = EmulatedDevice.directory(environment, "lapi", "btl/lapi: the emulated switch");
        LapiTask task = LapiTask.open(settings, fabric, environment.rank(), environment.size(), environment.hostname(),
                environment.jobKey());
        return List.of(new LapiBtlModule(task, properties));
    }

    /** The settings the parameters give, each checked with its name and source. */
    LapiSettings settings() {
        int ring = SharedRing.capacity(ringSize, 16 * 1024, "16 KiB");
        long minPacket = Packet.HEADER + LapiSettings.MAX_USER_HEADER + 64;
        if (packetSize.get() < minPacket || packetSize.get() > ring / 4) {
            throw packetSize.invalid("must be between " + minPacket + " and a quarter of " + ringSize);
        }
        for (Param<Integer> positive : List.of(tick, timeout)) {
            if (positive.get() < 1) {
                throw positive.invalid("must be positive");
            }
        }
        return new LapiSettings(mode.get(), packetSize.get().intValue(), ring, tick.get(), timeout.get(), wire.get());
    }
}
