package org.jmca.osc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class WindowPeerTest {
    @Test
    void aPeerSurvivesTheExchangeAndKeepsOnlyTheComponentsThisProcessRuns() {
        WindowPeer a = new WindowPeer(0x7f00_1234_5678L, 1L << 33, 8, List.of(
                new WindowPeer.RdmaKeys("lapi", 5, 6), new WindowPeer.RdmaKeys("verbs", -1, 0x1_0000_0001L)));
        WindowPeer b = new WindowPeer(16, 64, 1, List.of());
        int[] all = new int[2 * WindowPeer.INTS];
        System.arraycopy(a.encode(), 0, all, 0, WindowPeer.INTS);
        System.arraycopy(b.encode(), 0, all, WindowPeer.INTS, WindowPeer.INTS);
        assertThat(WindowPeer.decode(all, 0, List.of("self", "lapi", "verbs"))).isEqualTo(a);
        assertThat(WindowPeer.decode(all, 0, List.of("self", "verbs")).keys())
                .containsExactly(new WindowPeer.RdmaKeys("verbs", -1, 0x1_0000_0001L));
        assertThat(WindowPeer.decode(all, 1, List.of("lapi"))).isEqualTo(b);
    }
}
