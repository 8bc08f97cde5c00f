package org.example.jmca.coll;

import java.util.EnumSet;
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
 * {@code coll/gatherall}: a third-party collective component. It provides allreduce only, on
 * communicators of at least {@code coll_gatherall_min_size} ranks, for messages up to
 * {@code coll_gatherall_max_bytes}; larger ones go to the module below it (coll/tuned). Its
 * priority (50) puts it above tuned, so it wins allreduce and leaves every other function alone.
 */
public final class GatherAllreduceComponent implements CollComponent {
    private Param<Integer> minSize;
    private Param<Long> maxBytes;

    @Override
    public String name() {
        return "gatherall";
    }

    @Override
    public int defaultPriority() {
        return 50;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        minSize = registrar.register(ParameterSpec.builder("min_size", ParamType.INT, 4)
                .help("Smallest communicator coll/gatherall serves.")
                .level(4)
                .build());
        maxBytes = registrar.register(ParameterSpec.builder("max_bytes", ParamType.SIZE, 64L * 1024)
                .help("Largest allreduce it runs itself; larger ones go to the component below it.")
                .level(4)
                .build());
    }

    @Override
    public CollOffer query(CollCommunicator communicator) {
        if (communicator.size() < minSize.get()) {
            return CollOffer.declined("communicator smaller than coll_gatherall_min_size=" + minSize.get());
        }
        return CollOffer.of(new Module(communicator, maxBytes.get()));
    }

    /** The module for one communicator. */
    private static final class Module implements CollModule {
        private final CollCommunicator communicator;
        private final long maxBytes;
        private CollModule below;

        Module(CollCommunicator communicator, long maxBytes) {
            this.communicator = communicator;
            this.maxBytes = maxBytes;
        }

        @Override
        public Set<CollFunction> provides() {
            return EnumSet.of(CollFunction.ALLREDUCE);
        }

        @Override
        public void enable(CollTable table) {
            below = table.provider(CollFunction.ALLREDUCE).map(CollTable.Provider::module).orElse(null);
        }

        @Override
        public CollRequest start(CollFunction function, CollCall call) {
            if (call.bytes(call.count()) > maxBytes && below != null) {
                return below.start(function, call);
            }
            if (communicator.verbosity() >= 2) {
                communicator.log("coll:gatherall: allreduce of " + call.bytes(call.count())
                        + " B: gather to rank 0, reduce in rank order, send back");
            }
            return new GatherAllreduce(communicator, call);
        }

        @Override
        public String describe(CollFunction function) {
            return "gather-reduce-send up to " + maxBytes + " B, then " + (below == null ? "nothing" : "the module below");
        }
    }
}
