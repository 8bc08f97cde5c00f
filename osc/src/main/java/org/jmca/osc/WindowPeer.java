package org.jmca.osc;

import java.util.ArrayList;
import java.util.List;

/**
 * What every rank of a window knows of one rank's window: where it is, how large, its
 * displacement unit, and under which keys each of its BTLs lets peers put and get into it.
 * Exchanged at creation as a fixed number of ints ({@link #INTS}) per rank.
 *
 * @param address  the window's address in its process
 * @param bytes    its size in bytes
 * @param dispUnit bytes per displacement unit
 * @param keys     one entry per BTL component that exposed the window
 */
public record WindowPeer(long address, long bytes, int dispUnit, List<RdmaKeys> keys) {
    /** The most BTL components whose keys a rank publishes. */
    static final int MAX_KEYS = 6;
    /** Ints per rank in the creation exchange. */
    public static final int INTS = 6 + 5 * MAX_KEYS;

    /**
     * A BTL's keys for a window.
     *
     * @param component the BTL component's name ("lapi")
     * @param getKey    what {@code exposeForGet} returned, or -1
     * @param putKey    what {@code exposeForPut} returned, or -1
     */
    public record RdmaKeys(String component, long getKey, long putKey) {
    }

    public WindowPeer {
        keys = List.copyOf(keys);
        if (keys.size() > MAX_KEYS) {
            throw new IllegalArgumentException(keys.size() + " BTL keys, at most " + MAX_KEYS);
        }
    }

    /** The keys this rank's {@code component} gave, or null. */
    RdmaKeys keysOf(String component) {
        for (RdmaKeys k : keys) {
            if (k.component().equals(component)) {
                return k;
            }
        }
        return null;
    }

    /** This peer as the ints of the creation exchange. Components are carried by their names' hash codes. */
    public int[] encode() {
        int[] ints = new int[INTS];
        putLong(ints, 0, address);
        putLong(ints, 2, bytes);
        ints[4] = dispUnit;
        ints[5] = keys.size();
        for (int i = 0; i < keys.size(); i++) {
            int at = 6 + 5 * i;
            ints[at] = keys.get(i).component().hashCode();
            putLong(ints, at + 1, keys.get(i).getKey());
            putLong(ints, at + 3, keys.get(i).putKey());
        }
        return ints;
    }

    /**
     * Rank {@code rank}'s peer from the concatenated exchange; component names come back from
     * {@code componentNames} (this process's BTLs: a component this process does not run is of
     * no use to it).
     */
    public static WindowPeer decode(int[] all, int rank, List<String> componentNames) {
        int base = rank * INTS;
        List<RdmaKeys> keys = new ArrayList<>();
        for (int i = 0; i < all[base + 5]; i++) {
            int at = base + 6 + 5 * i;
            for (String name : componentNames) {
                if (name.hashCode() == all[at]) {
                    keys.add(new RdmaKeys(name, getLong(all, at + 1), getLong(all, at + 3)));
                }
            }
        }
        return new WindowPeer(getLong(all, base), getLong(all, base + 2), all[base + 4], keys);
    }

    private static void putLong(int[] ints, int at, long value) {
        ints[at] = (int) (value >>> 32);
        ints[at + 1] = (int) value;
    }

    private static long getLong(int[] ints, int at) {
        return (long) ints[at] << 32 | (ints[at + 1] & 0xFFFF_FFFFL);
    }
}
