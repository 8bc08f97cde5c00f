package org.jmca.coll.gm;

import java.util.List;
import org.jmca.mca.coll.CollFunction;

/**
 * coll/gm's selection as a tool sees it ({@code jmca-tune --component gm}): the algorithms a
 * map's rule may name, and the shipped map's choice at a point.
 */
public final class GmSelection {
    /** The shipped map's rule at one point: an algorithm, its segment size (0: none) and fan-out (0: the parameter's). */
    public record Choice(String algorithm, long segment, int fanout) {
    }

    private static final SelectionMap SHIPPED = SelectionMap.load(null);

    private GmSelection() {
    }

    /** The algorithms a rule of {@code function} may name: coll/gm's own broadcasts, then coll/base's. */
    public static List<String> algorithms(CollFunction function) {
        return SelectionMap.names(function);
    }

    /** The broadcasts coll/gm writes itself, which all take a segment size. */
    public static boolean ownBroadcast(CollFunction function, String algorithm) {
        return function == CollFunction.BCAST && SelectionMap.GM_BCASTS.contains(algorithm);
    }

    /** What the shipped map gives {@code function} on {@code ranks} ranks for messages of {@code bytes} bytes. */
    public static Choice shipped(CollFunction function, int ranks, long bytes) {
        SelectionMap.Rule rule = SHIPPED.choose(function, ranks, bytes);
        return new Choice(rule.alg(), rule.segment(), rule.fanout());
    }

    /** The info key that forces {@code function}'s algorithm on one communicator ({@code ALG[:SEGMENT[:FANOUT]]}). */
    public static String hintKey(CollFunction function) {
        return SelectionMap.hintKey(function);
    }
}
