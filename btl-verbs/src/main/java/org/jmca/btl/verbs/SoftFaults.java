package org.jmca.btl.verbs;

import java.util.SplittableRandom;

/**
 * Faults the software device injects, from a seed so that a failing run can be repeated: UD
 * datagrams lost, duplicated or reordered with the given probabilities, and the link taken down
 * (every packet this port sends is lost until it comes back up).
 */
public final class SoftFaults {
    /** No faults. */
    public static final SoftFaults NONE = new SoftFaults(0, 0, 0, 0);

    private final double udLoss;
    private final double udDuplicate;
    private final double udReorder;
    private final SplittableRandom random;
    private volatile boolean linkDown;

    public SoftFaults(long seed, double udLoss, double udDuplicate, double udReorder) {
        check("loss", udLoss);
        check("duplication", udDuplicate);
        check("reordering", udReorder);
        this.udLoss = udLoss;
        this.udDuplicate = udDuplicate;
        this.udReorder = udReorder;
        this.random = new SplittableRandom(seed);
    }

    private static void check(String what, double p) {
        if (!(p >= 0 && p < 1)) {
            throw new IllegalArgumentException("UD " + what + " probability " + p + " must be in [0, 1)");
        }
    }

    boolean loseDatagram() {
        return udLoss > 0 && random.nextDouble() < udLoss;
    }

    boolean duplicateDatagram() {
        return udDuplicate > 0 && random.nextDouble() < udDuplicate;
    }

    boolean reorderDatagram() {
        return udReorder > 0 && random.nextDouble() < udReorder;
    }

    /** Takes this port's link down (true) or brings it back (false). */
    public void linkDown(boolean down) {
        linkDown = down;
    }

    boolean linkDown() {
        return linkDown;
    }

    boolean any() {
        return udLoss > 0 || udDuplicate > 0 || udReorder > 0;
    }
}
