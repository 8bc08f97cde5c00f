package org.jmca.osc;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TargetLocksTest {
    private final List<Integer> grants = new ArrayList<>();
    private final TargetLocks locks = new TargetLocks(grants::add);

    @Test
    void sharedHoldersShareAndAnExclusiveRequestWaitsForAllOfThem() {
        locks.request(1, TargetLocks.SHARED);
        locks.request(2, TargetLocks.SHARED);
        locks.request(3, TargetLocks.EXCLUSIVE);
        assertThat(grants).containsExactly(1, 2);
        locks.release(1);
        assertThat(grants).containsExactly(1, 2);
        locks.release(2);
        assertThat(grants).containsExactly(1, 2, 3);
    }

    @Test
    void requestsAreGrantedInTheOrderTheyCameEvenWhenALaterOneCouldGoFirst() {
        locks.request(1, TargetLocks.EXCLUSIVE);
        locks.request(2, TargetLocks.EXCLUSIVE);
        locks.request(3, TargetLocks.SHARED);
        locks.request(4, TargetLocks.SHARED);
        assertThat(grants).containsExactly(1);
        locks.release(1);
        assertThat(grants).containsExactly(1, 2);
        locks.release(2);
        assertThat(grants).containsExactly(1, 2, 3, 4);
    }
}
