package org.jmca.btl.lapi;

import java.nio.file.Path;
import java.util.List;
import org.jmca.btl.base.EmulatedDevice;
import org.jmca.mca.Availability;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.lapi.LapiMode;
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

    private Param<String> device;
    private Param<LapiMode> mode;
    private Param<Long> packetSize;
    private Param<Long> ringSize;
    private Param<Integer> tick;
    private Param<Integer> timeout;
    private Param<String> wire;
    private Param<Long> eagerLimit;
    private Param<Long> maxSendSize;

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
        device = registrar.register(ParameterSpec.builder("device", ParamType.STRING, "auto")
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
        wire = registrar.register(ParameterSpec.builder("wire", ParamType.STRING, "auto")
                .help("auto reaches the tasks of this host through shared memory and those of other hosts over TCP;"
                        + " socket reaches every task over TCP (to test the wire on one host).").level(6).build());
        eagerLimit = registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, 4L * 1024)
                .help("Largest message (with its header) the BTL sends without a rendezvous.").level(4).build());
        maxSendSize = registrar.register(ParameterSpec.builder("max_send_size", ParamType.SIZE, 64L * 1024)
                .help("Largest fragment: one active message.").level(4).build());
    }

    @Override
    public Availability probe() {
        return switch (device.get()) {
            case "emulated" -> Availability.AVAILABLE;
            case "auto" -> Availability.unavailable((EmulatedDevice.libraryInstalled(LIBRARY) ? LIBRARY + " is installed, but JMCA's native"
                    + " LAPI backend is not built" : "no IBM LAPI library (" + LIBRARY + ") on this machine")
                    + "; btl_lapi_device=emulated runs LAPI on the emulated switch instead");
            default -> throw new McaException("btl_lapi_device=" + device.get() + " (" + device.source()
                    + ") is not one of auto, emulated");
        };
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (probe() instanceof Availability.Unavailable(String reason)) {
            throw new McaException("btl/lapi cannot run here: " + reason);
        }
        LapiSettings settings = settings();
        long max = maxSendSize.get();
        if (max < eagerLimit.get() || max > 64L << 20) {
            throw new McaException("btl_lapi_max_send_size=" + max + " (" + maxSendSize.source()
                    + ") must be at least btl_lapi_eager_limit=" + eagerLimit.get() + " (" + eagerLimit.source()
                    + ") and at most 64 MiB");
        }
        Path fabric = EmulatedDevice.directory(environment, "lapi", "btl/lapi: the emulated switch");
        LapiTask task = LapiTask.open(settings, fabric, environment.rank(), environment.size(), environment.hostname(),
                environment.jobKey());
        return List.of(new LapiBtlModule(task, eagerLimit.get(), (int) max));
    }

    /** The settings the parameters give, each checked with its name and source. */
    LapiSettings settings() {
        long ring = ringSize.get();
        if (ring > 1 << 30 || ring < 16 * 1024 || Long.bitCount(ring) != 1) {
            throw new McaException("btl_lapi_ring_size=" + ring + " (" + ringSize.source()
                    + ") must be a power of two between 16 KiB and 1 GiB");
        }
        long minPacket = Packet.HEADER + LapiSettings.MAX_USER_HEADER + 64;
        if (packetSize.get() < minPacket || packetSize.get() > ring / 4) {
            throw new McaException("btl_lapi_packet_size=" + packetSize.get() + " (" + packetSize.source()
                    + ") must be between " + minPacket + " and a quarter of btl_lapi_ring_size=" + ring + " ("
                    + ringSize.source() + ")");
        }
        if (tick.get() < 1) {
            throw new McaException("btl_lapi_tick=" + tick.get() + " (" + tick.source() + ") must be positive");
        }
        if (timeout.get() < 1) {
            throw new McaException("btl_lapi_timeout=" + timeout.get() + " (" + timeout.source() + ") must be positive");
        }
        LapiSettings.Wire reach = switch (wire.get()) {
            case "auto" -> LapiSettings.Wire.AUTO;
            case "socket" -> LapiSettings.Wire.SOCKET;
            default -> throw new McaException("btl_lapi_wire=" + wire.get() + " (" + wire.source()
                    + ") is not one of auto, socket");
        };
        return new LapiSettings(mode.get(), packetSize.get().intValue(), (int) ring, tick.get(), timeout.get(), reach);
    }
}
