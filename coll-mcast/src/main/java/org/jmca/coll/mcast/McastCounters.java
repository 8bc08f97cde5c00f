package org.jmca.coll.mcast;

import java.util.List;
import org.jmca.mca.Counter;

/** What coll/mcast did in this process, for reports and benchmarks. */
final class McastCounters {
    static final List<Counter> DECLARED = List.of(
            new Counter("coll_mcast_datagrams", "Data datagrams sent (multicast or to one rank, retransmissions included)"),
            new Counter("coll_mcast_retransmissions", "Messages sent again, on timeout, a full window or a NACK"),
            new Counter("coll_mcast_acks", "Acknowledgements sent (ACK and co-roots' group ACK)"),
            new Counter("coll_mcast_nacks", "NACKs sent"),
            new Counter("coll_mcast_nacks_suppressed", "NACKs not sent because another receiver had just asked"),
            new Counter("coll_mcast_duplicates", "Datagrams dropped as already received"),
            new Counter("coll_mcast_attaches", "Times a rank joined the group itself, its leader being late"),
            new Counter("coll_mcast_fallbacks", "Broadcasts above coll_mcast_max_size, sent point-to-point"),
            new Counter("coll_mcast_credit_requests",
                    "Questions a root out of credit sent to receivers it had not heard from (coll_mcast_credits)"),
            new Counter("coll_mcast_overruns", "Early datagrams dropped as beyond what this receiver holds"));

    long datagrams;
    long retransmissions;
    long acks;
    long nacks;
    long nacksSuppressed;
    long duplicates;
    long attaches;
    long detaches;
    long fallbacks;
    long overruns;
    long creditRequests;
    long strays;

    long[] values() {
        return new long[] {datagrams, retransmissions, acks, nacks, nacksSuppressed, duplicates, attaches, fallbacks,
                creditRequests, overruns};
    }

    @Override
    public String toString() {
        return "datagrams " + datagrams + ", retransmissions " + retransmissions + ", acks " + acks + ", nacks " + nacks
                + " (" + nacksSuppressed + " suppressed), duplicates " + duplicates + ", attaches " + attaches
                + ", detaches " + detaches + ", fallbacks " + fallbacks + ", credit requests " + creditRequests
                + ", overruns " + overruns;
    }
}
