package org.jmca.btl.base;

import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * The parameters every BTL has, registered in one place as Open MPI's
 * {@code mca_btl_base_param_register} does: {@code btl_<name>_exclusivity}, {@code _latency},
 * {@code _bandwidth}, {@code _eager_limit} and {@code _max_send_size}. A component registers them
 * with its defaults and reads back the {@link BtlProperties} its modules offer.
 */
public final class BtlBaseParameters {
    private final BtlProperties defaults;
    private final Param<Integer> exclusivity;
    private final Param<Long> latency;
    private final Param<Long> bandwidth;
    private final Param<Long> eagerLimit;
    private final Param<Long> maxSendSize;

    private BtlBaseParameters(BtlProperties defaults, ParameterRegistrar registrar) {
        this.defaults = defaults;
        exclusivity = registrar.register(ParameterSpec.builder("exclusivity", ParamType.INT, defaults.exclusivity())
                .help("Rank against other BTLs that reach the same peer; only the highest reaching a peer is used.")
                .level(7)
                .build());
        latency = registrar.register(ParameterSpec.builder("latency", ParamType.LONG, defaults.latencyNanos())
                .help("Expected one-way latency of a small message, in nanoseconds; among BTLs of the same"
                        + " exclusivity, eager messages take the lowest.")
                .level(7)
                .build());
        bandwidth = registrar.register(ParameterSpec.builder("bandwidth", ParamType.LONG, defaults.bandwidthMbps())
                .help("Expected bandwidth in Mbit/s; large messages are striped across BTLs in proportion to it.")
                .level(7)
                .build());
        eagerLimit = registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, defaults.eagerLimit())
                .help("Largest message (with its 16-byte header) sent without a rendezvous.")
                .level(4)
                .build());
        maxSendSize = registrar.register(ParameterSpec.builder("max_send_size", ParamType.SIZE, defaults.maxSendSize())
                .help("Largest fragment of a rendezvous message; at least the eager limit.")
                .level(4)
                .build());
    }

    /** Registers the common parameters of one BTL, with {@code defaults} as their defaults. */
    public static BtlBaseParameters register(ParameterRegistrar registrar, BtlProperties defaults) {
        return new BtlBaseParameters(defaults, registrar);
    }

    public Param<Long> eagerLimit() {
        return eagerLimit;
    }

    public Param<Long> maxSendSize() {
        return maxSendSize;
    }

    /**
     * What the parameters ask for, with the defaults' flags.
     *
     * @throws org.jmca.mca.McaException naming the parameter that is wrong and where its value came from
     */
    public BtlProperties properties() {
        if (exclusivity.get() < 0) {
            throw exclusivity.invalid("must not be negative");
        }
        if (latency.get() < 0) {
            throw latency.invalid("must not be negative");
        }
        if (bandwidth.get() <= 0) {
            throw bandwidth.invalid("must be positive");
        }
        if (eagerLimit.get() <= 0) {
            throw eagerLimit.invalid("must be positive");
        }
        if (maxSendSize.get() < eagerLimit.get()) {
            throw maxSendSize.invalid("is below " + eagerLimit);
        }
        return new BtlProperties(exclusivity.get(), latency.get(), bandwidth.get(), eagerLimit.get(),
                maxSendSize.get(), defaults.flags());
    }
}
