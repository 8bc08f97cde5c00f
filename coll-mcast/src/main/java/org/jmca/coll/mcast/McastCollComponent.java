package org.jmca.coll.mcast;

import java.io.IOException;
import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.net.SocketException;
import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.base.NetworkAddresses;
import org.jmca.common.verbs.UdDevice;
import org.jmca.mca.Counter;
import org.jmca.mca.McaException;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;
import org.jmca.mca.progress.ProgressEngine;

/**
 * {@code coll/mcast}: broadcast over IP multicast made reliable (the paper on InfiniBand hardware
 * multicast, on UDP). Off unless {@code coll_mcast_enable} is set, as multicast is often not
 * routed where jobs run; then at priority 50, above coll/tuned, for broadcast, allreduce and
 * (SMP-aware) alltoall. It
 * declines, saying why, a communicator of one rank, one whose ranks share one host (shared
 * memory serves them better, unless SMP awareness is off), and every communicator of a process
 * where no interface carries multicast.
 */
public final class McastCollComponent implements CollComponent {
    private Param<Boolean> enable;
    private Param<Carrier.Kind> carrier;
    private Param<Reliability> reliability;
    private Param<Integer> coroots;
    private Param<Integer> window;
    private Param<Integer> ackEvery;
    private Param<Integer> credits;
    private Param<Long> maxSize;
    private Param<Long> fragmentSize;
    private Param<Integer> retransmitMicros;
    private Param<Integer> nackDelayMicros;
    private Param<Boolean> smpAware;
    private Param<Integer> attachWaitMicros;
    private Param<Integer> detachAfter;
    private Param<Long> alltoallMaxBlock;
    private Param<List<String>> ifInclude;
    private Param<Integer> port;
    private Param<Double> dropRate;
    private Param<Double> dupRate;
    private Param<Double> reorderRate;
    private Param<Long> faultSeed;
    private McastEngine engine;
    /** Why this process cannot multicast, once an attempt to open the carrier failed. */
    private String unavailable;
    private ProgressEngine.Registration progressRegistration;

    @Override
    public String name() {
        return "mcast";
    }

    @Override
    public int defaultPriority() {
        return 50;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        enable = registrar.register(ParameterSpec.builder("enable", ParamType.BOOL, false)
                .help("Broadcast (and allreduce) over IP multicast made reliable; off by default, since multicast is"
                        + " often not routed where jobs run.").level(2).build());
        carrier = registrar.register(ParameterSpec.builder("carrier", ParamType.enumOf(Carrier.Kind.class),
                        Carrier.Kind.UDP)
                .help("udp: IP multicast over UDP on coll_mcast_if_include's interface; verbs: UD multicast on the"
                        + " device btl/verbs opened (--mca btl self,sm,verbs; btl_verbs_device soft for the software"
                        + " device), the paper's own carrier.").level(3).build());
        reliability = registrar.register(ParameterSpec.builder("reliability", ParamType.enumOf(Reliability.class),
                        Reliability.ACK)
                .help("ack: receivers acknowledge every coll_mcast_ack_every-th message, skewed by rank, and the root"
                        + " retransmits on timeout; coroot: the root also sends point-to-point to coll_mcast_coroots"
                        + " co-roots, which collect the acknowledgements of their part of the ranks and retransmit to it;"
                        + " nack: receivers ask for what they miss, and keep quiet when another just asked.").level(4)
                .build());
        coroots = registrar.register(ParameterSpec.builder("coroots", ParamType.INT, 2)
                .help("Co-roots per broadcast in the coroot scheme (0: the root collects every acknowledgement).")
                .level(5).build());
        window = registrar.register(ParameterSpec.builder("window", ParamType.INT, 32)
                .help("Messages a root (or co-root) keeps for retransmission until acknowledged: its sliding window; a"
                        + " receiver holds early messages up to twice this far beyond what it delivered.").level(5).build());
        ackEvery = registrar.register(ParameterSpec.builder("ack_every", ParamType.INT, 10)
                .help("A receiver acknowledges every M-th message (the paper's best: 10), at an offset of its rank so"
                        + " receivers do not all answer at once.").level(4).build());
        credits = registrar.register(ParameterSpec.builder("credits", ParamType.INT, 0)
                .help("Credit-based flow control: a receiver holds this many messages beyond what it delivered and"
                        + " grants them in every acknowledgement; a root multicasts only what each receiver has credit"
                        + " for and asks those it has not heard from lately (0: off; a receiver holds early messages up"
                        + " to twice coll_mcast_window and drops later ones, which come again).").level(5).build());
        maxSize = registrar.register(ParameterSpec.builder("max_size", ParamType.SIZE, 64L * 1024)
                .help("Larger messages are broadcast point-to-point by the component below (coll/tuned).").level(4)
                .build());
        fragmentSize = registrar.register(ParameterSpec.builder("fragment_size", ParamType.SIZE, 8L * 1024)
                .help("Message bytes per datagram.").level(5).build());
        retransmitMicros = registrar.register(ParameterSpec.builder("retransmit_us", ParamType.INT, 2000)
                .help("First retransmission timeout, in microseconds; doubled for every retransmission of a message,"
                        + " up to 200 ms.").level(5).build());
        nackDelayMicros = registrar.register(ParameterSpec.builder("nack_delay_us", ParamType.INT, 200)
                .help("nack: how long a receiver waits before asking, plus a random part as long; another receiver's"
                        + " request heard in that time postpones its own.").level(5).build());
        smpAware = registrar.register(ParameterSpec.builder("smp_aware", ParamType.BOOL, true)
                .help("One leader per host receives the multicast and passes it on over shared memory (false: every"
                        + " rank receives the multicast).").level(4).build());
        attachWaitMicros = registrar.register(ParameterSpec.builder("attach_wait_us", ParamType.INT, 800)
                .help("Dynamic attach: a rank that waits longer than this for its host's leader joins the multicast"
                        + " group itself.").level(5).build());
        detachAfter = registrar.register(ParameterSpec.builder("detach_after", ParamType.INT, 64)
                .help("An attached rank leaves the group again after this many broadcasts in a row that its leader"
                        + " served first.").level(6).build());
        alltoallMaxBlock = registrar.register(ParameterSpec.builder("alltoall_max_block", ParamType.SIZE, 2048L)
                .help("SMP-aware: alltoall with blocks up to this size goes through one leader per host (intra-host"
                        + " gather, inter-host exchange, intra-host scatter; the paper's model puts the cut-off near"
                        + " 2 KiB); larger blocks go to the component below.").level(4).build());
        ifInclude = registrar.register(ParameterSpec.builder("if_include", ParamType.LIST, List.of())
                .help("The interface to multicast on, by name or subnet (eth0, 10.0.0.0/8); by default the first"
                        + " interface that is up, not loopback and multicast-capable.").level(3).build());
        port = registrar.register(ParameterSpec.builder("port", ParamType.INT, 0)
                .help("UDP port of the job's multicast groups (0: one derived from the job).").level(5).build());
        dropRate = registrar.register(ParameterSpec.builder("drop_rate", ParamType.DOUBLE, 0.0)
                .help("Testing: the chance that a received datagram is dropped.").level(7).build());
        dupRate = registrar.register(ParameterSpec.builder("dup_rate", ParamType.DOUBLE, 0.0)
                .help("Testing: the chance that a received datagram is delivered twice.").level(7).build());
        reorderRate = registrar.register(ParameterSpec.builder("reorder_rate", ParamType.DOUBLE, 0.0)
                .help("Testing: the chance that a received datagram is held back behind the ones after it.").level(7)
                .build());
        faultSeed = registrar.register(ParameterSpec.builder("fault_seed", ParamType.LONG, 1L)
                .help("Testing: the seed of the injected faults (each rank draws its own stream from it).").level(7)
                .build());
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        if (!enable.get()) {
            return CollOffer.declined("off (--mca coll_mcast_enable 1 turns it on)");
        }
        int size = communicator.size();
        if (size < 2) {
            return CollOffer.declined("serves communicators of 2 ranks or more; this one has " + size);
        }
        McastSettings settings = settings();
        String[] hosts = new String[size];
        for (int r = 0; r < size; r++) {
            hosts[r] = communicator.host(r);
        }
        Topology topology = new Topology(hosts, settings);
        if (settings.smpAware() && topology.hosts() == 1) {
            return CollOffer.declined("all " + size + " ranks are on host " + hosts[0] + ", where shared memory serves"
                    + " them (coll_mcast_smp_aware 0 multicasts anyway)");
        }
        McastEngine running = engine(communicator, settings);
        if (running == null) {
            return CollOffer.declined(unavailable);
        }
        return CollOffer.of(new McastCollModule(running, running.open(communicator, topology), communicator));
    }

    /** The process's engine, opened at the first communicator; null (and {@link #unavailable} says why) if it cannot be. */
    private synchronized McastEngine engine(CollCommunicator communicator, McastSettings settings) {
        if (engine == null && unavailable == null) {
            int job = communicator.jobId().hashCode();
            Carrier opened = carrier.get() == Carrier.Kind.VERBS ? openVerbs() : openUdp(job, !settings.smpAware());
            if (opened == null) {
                return null;
            }
            engine = new McastEngine(opened, settings, job, communicator.jobRank(communicator.rank()));
            ProgressEngine progress = communicator.progressEngine();
            if (progress != null) {
                progressRegistration = progress.register(engine::progress, ProgressEngine.Priority.LOW);
            }
        }
        return engine;
    }

    private Carrier openUdp(int job, boolean loopback) {
        NetworkAddresses.Address address = chooseAddress();
        if (address == null) {
            unavailable = ifInclude.get().isEmpty()
                    ? "no IPv4 interface is up, multicast-capable and not loopback (coll_mcast_if_include names one)"
                    : "coll_mcast_if_include=" + String.join(",", ifInclude.get()) + " (" + ifInclude.source()
                            + ") selects no interface that supports multicast";
            return null;
        }
        int udpPort = port.get() != 0 ? port.get() : 10_000 + Math.floorMod(job * 31, 20_000);
        try {
            NetworkInterface nic = NetworkInterface.getByName(address.interfaceName());
            return UdpCarrier.open(nic, (Inet4Address) address.address(), udpPort, loopback);
        } catch (IOException e) {
            unavailable = "cannot multicast on " + address.interfaceName() + ": " + e.getMessage();
            return null;
        }
    }

    private Carrier openVerbs() {
        UdDevice device = UdDevice.published().orElse(null);
        if (device == null) {
            unavailable = "coll_mcast_carrier=verbs (" + carrier.source() + "), but btl/verbs is not running in this"
                    + " process (--mca btl self,sm,verbs --mca btl_verbs_device soft)";
            return null;
        }
        try {
            return new VerbsCarrier(device);
        } catch (RuntimeException e) {
            unavailable = "cannot open a UD queue pair on " + device.description() + ": " + e.getMessage();
            return null;
        }
    }

    private NetworkAddresses.Address chooseAddress() {
        List<NetworkAddresses.Address> candidates = NetworkAddresses.select(NetworkAddresses.all(), "coll_mcast_if",
                ifInclude.get(), ifInclude.source().toString(), List.of(), "");
        for (NetworkAddresses.Address a : candidates) {
            try {
                NetworkInterface nic = NetworkInterface.getByName(a.interfaceName());
                if (a.address() instanceof Inet4Address && nic != null && nic.supportsMulticast()
                        && (!a.loopback() || !ifInclude.get().isEmpty())) {
                    return a;
                }
            } catch (SocketException e) {
                // this interface cannot be asked; try the next
            }
        }
        return null;
    }

    McastSettings settings() {
        positive(window, ackEvery, retransmitMicros, nackDelayMicros, detachAfter);
        for (Param<Integer> count : List.of(coroots, credits)) {
            if (count.get() < 0) {
                throw count.invalid("must not be negative");
            }
        }
        if (ackEvery.get() > window.get()) {
            throw ackEvery.invalid("is larger than " + window
                    + ": the root's window would fill before any acknowledgement comes");
        }
        long fragment = fragmentSize.get();
        if (fragment < 64 || fragment > Packet.MAX_DATAGRAM - Packet.HEADER) {
            throw fragmentSize.invalid("must be between 64 and " + (Packet.MAX_DATAGRAM - Packet.HEADER)
                    + " bytes (one UDP datagram)");
        }
        if (maxSize.get() < 0 || maxSize.get() > Integer.MAX_VALUE) {
            throw maxSize.invalid("must be between 0 and 2 GiB");
        }
        if (attachWaitMicros.get() < 0) {
            throw new McaException("coll_mcast_attach_wait_us=" + attachWaitMicros.get() + " ("
                    + attachWaitMicros.source() + ") must not be negative");
        }
        for (Param<Double> rate : List.of(dropRate, dupRate, reorderRate)) {
            if (!(rate.get() >= 0 && rate.get() < 1)) {
                throw rate.invalid("must be at least 0 and below 1");
            }
        }
        return new McastSettings(reliability.get(), coroots.get(), window.get(), ackEvery.get(), credits.get(),
                maxSize.get(), (int) fragment, retransmitMicros.get() * 1000L, nackDelayMicros.get() * 1000L,
                smpAware.get(), attachWaitMicros.get() * 1000L, detachAfter.get(), alltoallMaxBlock.get(),
                new FaultInjection.Rates(dropRate.get(), dupRate.get(), reorderRate.get(), faultSeed.get()));
    }

    @SafeVarargs
    private static void positive(Param<Integer>... counts) {
        for (Param<Integer> count : counts) {
            if (count.get() < 1) {
                throw count.invalid("must be positive");
            }
        }
    }

    @Override
    public List<Counter> counters() {
        return McastCounters.DECLARED;
    }

    /** Every counter, 0 while no communicator uses coll/mcast in this process. */
    @Override
    public List<PerformanceVariable> performanceVariables() {
        List<PerformanceVariable> variables = new ArrayList<>();
        for (int i = 0; i < McastCounters.DECLARED.size(); i++) {
            int index = i;
            variables.add(McastCounters.DECLARED.get(i).readBy(() -> {
                McastEngine running = running();
                if (running == null) {
                    return 0;
                }
                synchronized (running) {
                    return running.counters.values()[index];
                }
            }));
        }
        return variables;
    }

    private synchronized McastEngine running() {
        return engine;
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
