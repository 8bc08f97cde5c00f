package org.jmca.pml.ob1;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;

/**
 * The way to one peer: the BTL endpoint its traffic takes, chosen as Open MPI's bml/r2 chooses:
 * among the modules that reach the peer, the highest exclusivity; among those, the lowest latency,
 * then the highest bandwidth. {@code canGet}, {@code canPut}: the BTL can read, or write, the
 * peer's memory (at any size); {@code heap}: on the Java heap too, not only native memory.
 */
record Route(BtlEndpoint endpoint, long eagerLimit, long maxSendSize, boolean canGet, boolean canPut, boolean heap) {

    BtlModule btl() {
        return endpoint.module();
    }

    /** True if the BTL can read or write {@code memory} of a peer, or into it. */
    boolean reaches(java.lang.foreign.MemorySegment memory) {
        return heap || memory.isNative();
    }

    static Optional<Route> choose(List<BtlEndpoint> candidates) {
        // highest exclusivity, then lowest latency, then highest bandwidth (written out: the JDK's
        // comparator combinators are serializable lambdas, which the AOT cache does not keep)
        Comparator<BtlEndpoint> best = (a, b) -> {
            BtlProperties x = a.module().properties();
            BtlProperties y = b.module().properties();
            if (x.exclusivity() != y.exclusivity()) {
                return Integer.compare(y.exclusivity(), x.exclusivity());
            }
            if (x.latencyNanos() != y.latencyNanos()) {
                return Long.compare(x.latencyNanos(), y.latencyNanos());
            }
            return Long.compare(y.bandwidthMbps(), x.bandwidthMbps());
        };
        return candidates.stream().min(best).map(e -> {
            BtlProperties p = e.module().properties();
            return new Route(e, p.eagerLimit(), p.maxSendSize(), p.flags().contains(BtlProperties.Flag.GET),
                    p.flags().contains(BtlProperties.Flag.PUT), p.flags().contains(BtlProperties.Flag.HEAP));
        });
    }
}
