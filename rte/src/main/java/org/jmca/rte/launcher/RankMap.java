package org.jmca.rte.launcher;

import java.util.ArrayList;
import java.util.List;

/**
 * Where each rank runs, as Open MPI's mapper places them: {@code --map-by slot} fills each host's
 * slots before the next host's, {@code --map-by node} deals ranks out one per host in turn;
 * {@code -N n} puts n on every host. More ranks than slots is an error unless
 * {@code --oversubscribe}, and then the surplus is dealt out over the hosts in turn.
 */
final class RankMap {
    /** How ranks are dealt out. */
    enum MapBy { slot, node }

    /**
     * @param host      index into the host list
     * @param localRank its place among the ranks of its host
     */
    record Placement(int rank, int host, int localRank) {
    }

    private RankMap() {
    }

    /**
     * @param perHost ranks per host ({@code -N}), or 0
     */
    static List<Placement> map(List<Host> hosts, int np, MapBy by, int perHost, boolean oversubscribe) {
        int slots = hosts.stream().mapToInt(Host::slots).sum();
        int[] count = new int[hosts.size()];
        int[] hostOf = new int[np];
        if (perHost > 0) {
            if (np > perHost * hosts.size()) {
                throw new IllegalArgumentException("-np " + np + " is more than -N " + perHost + " ranks on each of "
                        + hosts.size() + " hosts");
            }
            for (int r = 0; r < np; r++) {
                hostOf[r] = by == MapBy.node ? r % hosts.size() : r / perHost;
            }
            if (!oversubscribe) {
                for (int h = 0; h < hosts.size(); h++) {
                    if (perHost > hosts.get(h).slots() && np > h * (by == MapBy.node ? 1 : perHost)) {
                        throw notEnoughSlots(np, hosts, "-N " + perHost + " is more than host " + hosts.get(h).name()
                                + "'s " + hosts.get(h).slots() + " slots");
                    }
                }
            }
        } else {
            if (np > slots && !oversubscribe) {
                throw notEnoughSlots(np, hosts, null);
            }
            int r = 0;
            if (by == MapBy.slot) {
                for (int h = 0; h < hosts.size() && r < np; h++) {
                    for (int s = 0; s < hosts.get(h).slots() && r < np; s++) {
                        hostOf[r++] = h;
                    }
                }
            } else {
                for (int round = 0; r < np && round < slots; round++) {
                    for (int h = 0; h < hosts.size() && r < np; h++) {
                        if (round < hosts.get(h).slots()) {
                            hostOf[r++] = h;
                        }
                    }
                }
            }
            for (int h = 0; r < np; h = (h + 1) % hosts.size()) { // oversubscribed: the rest in turn
                hostOf[r++] = h;
            }
        }
        List<Placement> placements = new ArrayList<>();
        for (int r = 0; r < np; r++) {
            placements.add(new Placement(r, hostOf[r], count[hostOf[r]]++));
        }
        return placements;
    }

    private static IllegalArgumentException notEnoughSlots(int np, List<Host> hosts, String detail) {
        return new IllegalArgumentException("there are not enough slots for the " + np + " ranks requested ("
                + (detail != null ? detail : String.join(", ", hosts.stream().map(h -> h.name() + ": " + h.slots())
                        .toList()) + " slots") + "); request fewer ranks, give hosts more slots (--host h:N,"
                + " slots=N in the hostfile), or run more ranks than slots with --oversubscribe");
    }
}
