package org.jmca.coll.gm;

import java.util.EnumSet;
import java.util.Set;
import org.jmca.coll.base.Algorithm;
import org.jmca.coll.base.Algorithms;
import org.jmca.coll.base.Schedule;
import org.jmca.coll.base.ScheduleModule;
import org.jmca.coll.base.Tree;
import org.jmca.coll.base.Tuning;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollRequest;

/**
 * coll/gm on one communicator: every collective, its algorithm from the selection map, run on
 * the GM port: the broadcast trees of coll/gm itself, the rest as coll/base's schedules over
 * coll/gm's own messages (never through the PML).
 */
final class GmCollModule implements CollModule {
    private final GmEngine engine;
    private final CollCommunicator communicator;
    private final GmComm comm;
    private final SelectionMap map;

    GmCollModule(GmEngine engine, CollCommunicator communicator, GmComm comm, SelectionMap map) {
        this.engine = engine;
        this.communicator = communicator;
        this.comm = comm;
        this.map = map;
        engine.learn(comm);
    }

    @Override
    public Set<CollFunction> provides() {
        return EnumSet.allOf(CollFunction.class);
    }

    @Override
    public CollRequest start(CollFunction function, CollCall call) {
        long bytes = ScheduleModule.messageBytes(function, call);
        SelectionMap.Rule rule = map.choose(function, comm.size(), bytes);
        int fanout = rule.fanout() > 0 ? rule.fanout() : engine.settings().fanout();
        synchronized (engine) {
            CallChannel channel = engine.open(comm, call.tag());
            CollRequest body;
            String algorithm;
            if (function == CollFunction.BCAST && SelectionMap.GM_BCASTS.contains(rule.alg())) {
                body = new TreeBcast(channel, call.recv().asSlice(0, call.bytes(call.count())),
                        tree(rule.alg(), call.root(), fanout), rule.segment());
                algorithm = rule.describe() + (engine.settings().forward() ? ", forwarding from receive buffers" : "");
            } else {
                Algorithm chosen = SelectionMap.algorithm(function, rule.alg());
                String unsuitable = chosen.unsuitableFor(comm.size(), call);
                if (unsuitable != null) {
                    chosen = Algorithms.find(function, 1).orElseThrow();
                }
                Schedule schedule = new Schedule(channel, call.tag());
                chosen.steps().add(schedule, call, new Tuning(rule.segment(), fanout, fanout, 0));
                body = schedule.start();
                algorithm = unsuitable == null ? rule.describe() : chosen.name() + " (" + unsuitable + ")";
            }
            if (communicator.verbosity() >= 2) {
                communicator.log("coll:gm: " + function.id() + " of " + bytes + " B on " + comm.size()
                        + " ranks: algorithm " + algorithm + " [selection map " + rule.origin() + "]");
            }
            return new GmCall(engine, channel, body);
        }
    }

    private Tree tree(String shape, int root, int fanout) {
        return switch (shape) {
            case "binomial" -> Tree.binomial(comm.rank(), root, comm.size());
            case "binary" -> Tree.kary(comm.rank(), root, comm.size(), 2);
            case "nary" -> Tree.kary(comm.rank(), root, comm.size(), fanout);
            case "pipeline" -> Tree.chain(comm.rank(), root, comm.size(), 1);
            default -> Tree.chain(comm.rank(), root, comm.size(), fanout);
        };
    }

    @Override
    public String describe(CollFunction function) {
        return "selection map " + map.source() + ", on " + engine.description();
    }
}
