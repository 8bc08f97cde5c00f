package org.jmca.progress;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.agrona.concurrent.BusySpinIdleStrategy;
import org.jmca.mca.progress.ProgressEngine.Priority;
import org.jmca.mca.progress.ProgressEngine.Registration;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;
import org.junit.jupiter.api.Test;

class PollingProgressEngineTest {

    private static PollingProgressEngine engine(int lowInterval) {
        return new PollingProgressEngine(WaitStrategy.SPIN, new BusySpinIdleStrategy(), lowInterval);
    }

    @Test
    void highPriorityCallbacksRunEveryTurnAndLowPriorityOnesEveryNth() {
        PollingProgressEngine engine = engine(8);
        AtomicInteger high = new AtomicInteger();
        AtomicInteger low = new AtomicInteger();
        engine.register(() -> {
            high.incrementAndGet();
            return 1;
        }, Priority.HIGH);
        engine.register(() -> {
            low.incrementAndGet();
            return 2;
        }, Priority.LOW);

        int events = 0;
        for (int turn = 0; turn < 16; turn++) {
            events += engine.progress();
        }
        assertThat(high).hasValue(16);
        assertThat(low).hasValue(2);
        assertThat(events).isEqualTo(16 + 2 * 2);
    }

    @Test
    void closingARegistrationRemovesOnlyThatCallback() {
        PollingProgressEngine engine = engine(1);
        AtomicInteger a = new AtomicInteger();
        AtomicInteger b = new AtomicInteger();
        Registration ra = engine.register(a::incrementAndGet, Priority.HIGH);
        engine.register(b::incrementAndGet, Priority.HIGH);
        engine.progress();
        ra.close();
        engine.progress();
        assertThat(a).hasValue(1);
        assertThat(b).hasValue(2);
    }

    @Test
    void waitUntilDrivesProgressUntilTheConditionHolds() {
        PollingProgressEngine engine = engine(8);
        AtomicInteger remaining = new AtomicInteger(1000);
        engine.register(() -> remaining.decrementAndGet() >= 0 ? 1 : 0, Priority.HIGH);
        engine.waitUntil(() -> remaining.get() <= 0);
        assertThat(remaining.get()).isLessThanOrEqualTo(0);
    }

    @Test
    void everyStrategyReturnsOnceAnotherThreadSatisfiesTheCondition() throws InterruptedException {
        for (WaitStrategy strategy : new WaitStrategy[] {WaitStrategy.SPIN, WaitStrategy.SPIN_YIELD, WaitStrategy.SPIN_PARK}) {
            ProgressEngine engine = new PollingProgressEngine(strategy,
                    strategy.idleStrategy(10, 10, 1_000, 100_000), 8);
            AtomicBoolean done = new AtomicBoolean();
            Thread setter = Thread.ofPlatform().start(() -> {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                done.set(true);
            });
            engine.waitUntil(done::get);
            setter.join();
            assertThat(done).as(strategy.name()).isTrue();
        }
    }

    @Test
    void autoSpinsWithACorePerProcessAndYieldsWhenOversubscribed() {
        assertThat(WaitStrategy.AUTO.resolve(new ProgressEnvironment(2, 2))).isEqualTo(WaitStrategy.SPIN);
        assertThat(WaitStrategy.AUTO.resolve(new ProgressEnvironment(4, 2))).isEqualTo(WaitStrategy.SPIN_YIELD);
        assertThat(WaitStrategy.SPIN_PARK.resolve(new ProgressEnvironment(1, 2))).isEqualTo(WaitStrategy.SPIN_PARK);
        assertThatThrownBy(() -> WaitStrategy.AUTO.idleStrategy(1, 1, 1, 1)).isInstanceOf(IllegalStateException.class);
    }

    @Test
    void aLowPriorityIntervalBelowOneIsRejected() {
        assertThatThrownBy(() -> engine(0)).hasMessageContaining("lowPriorityInterval=0");
    }
}
