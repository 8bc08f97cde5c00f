package org.jmca.btl.tcp;

import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.NetworkAddresses;
import org.jmca.mca.Availability;
import org.jmca.mca.Counter;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/tcp}: TCP over NIO between any hosts. Available when an IPv4 interface that is up
 * passes {@code btl_tcp_if_include} / {@code btl_tcp_if_exclude}.
 */
public final class TcpBtlComponent implements BtlComponent {
    /** Exclusivity, latency (ns), bandwidth (Mbit/s), eager limit, fragment size, and what it can do. */
    static final BtlProperties DEFAULTS = new BtlProperties(100, 50_000, 10_000, 64L * 1024, 128L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND));

    private Param<List<String>> include;
    private Param<List<String>> exclude;
    private BtlBaseParameters common;
    private Param<Long> maxQueued;
    private Param<Integer> connectTimeoutMs;
    private Param<Integer> verbose;

    @Override
    public String name() {
        return "tcp";
    }

    @Override
    public int defaultPriority() {
        return 0;
    }

    @Override
    public List<Counter> counters() {
        return TcpBtlModule.COUNTERS;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        include = registrar.register(ParameterSpec.builder("if_include", ParamType.LIST, List.<String>of())
                .help("Interfaces to use, by name (eth0) or subnet (10.0.0.0/8); empty uses every interface that is"
                        + " up. Not with btl_tcp_if_exclude.")
                .level(1)
                .build());
        exclude = registrar.register(ParameterSpec.builder("if_exclude", ParamType.LIST, List.<String>of())
                .help("Interfaces not to use, by name or subnet. Not with btl_tcp_if_include.")
                .level(1)
                .build());
        common = BtlBaseParameters.register(registrar, DEFAULTS);
        maxQueued = registrar.register(ParameterSpec.builder("max_queued", ParamType.SIZE, 8L * 1024 * 1024)
                .help("Bytes queued for one peer (connecting, or its socket full) before sends wait.")
                .level(6)
                .build());
        connectTimeoutMs = registrar.register(ParameterSpec.builder("connect_timeout", ParamType.INT, 30_000)
                .help("Milliseconds a connection may take before the peer counts as unreachable.")
                .level(5)
                .build());
        verbose = registrar.register(ParameterSpec.builder("verbose", ParamType.INT, 0)
                .help("Above 0: print the addresses each rank listens on and every refused connection.")
                .level(5)
                .build());
    }

    @Override
    public Availability probe() {
        List<NetworkAddresses.Address> selected = selectedAddresses();
        return selected.isEmpty()
                ? Availability.unavailable("no IPv4 network interface is up and selected by btl_tcp_if_include/exclude")
                : Availability.AVAILABLE;
    }

    private List<NetworkAddresses.Address> selectedAddresses() {
        return NetworkAddresses.select(NetworkAddresses.all(), "btl_tcp_if", include.get(), include.source().toString(),
                exclude.get(), exclude.source().toString());
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        BtlProperties properties = common.properties();
        if (connectTimeoutMs.get() <= 0) {
            throw connectTimeoutMs.invalid("must be positive");
        }
        TcpSettings settings = new TcpSettings(properties, maxQueued.get(), connectTimeoutMs.get() * 1_000_000L);
        TcpBtlModule module = new TcpBtlModule(environment.rank(), environment.hostname(), environment.jobKey(),
                selectedAddresses(), settings, line -> System.err.println("jmca: " + line));
        if (verbose.get() > 0) {
            System.err.println("jmca: btl/tcp: rank " + environment.rank() + " listens on "
                    + module.localAddress().get(TcpBtlModule.ADDRESSES_KEY));
        }
        return List.of(module);
    }
}
