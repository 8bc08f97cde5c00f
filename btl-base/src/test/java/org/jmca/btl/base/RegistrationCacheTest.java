package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class RegistrationCacheTest {
    private final List<MemorySegment> registered = new ArrayList<>();
    private final List<MemorySegment> deregistered = new ArrayList<>();
    private final RegistrationCache.Registrar<MemorySegment> registrar = new RegistrationCache.Registrar<>() {
        @Override
        public MemorySegment register(MemorySegment memory, int access) {
            registered.add(memory);
            return memory;
        }

        @Override
        public void deregister(MemorySegment registration) {
            deregistered.add(registration);
        }
    };

    @Test
    void aBufferUsedAgainHitsAndAPartOfARegisteredBufferHitsToo() {
        RegistrationCache<MemorySegment> cache = new RegistrationCache<>(registrar, true, 1 << 20);
        MemorySegment buffer = Arena.ofAuto().allocate(4096);
        cache.release(cache.acquire(buffer, 1));
        cache.release(cache.acquire(buffer, 1));
        cache.release(cache.acquire(buffer.asSlice(100, 200), 1));
        assertThat(cache.hits()).isEqualTo(2);
        assertThat(cache.misses()).isEqualTo(1);
        assertThat(registered).hasSize(1);
        assertThat(deregistered).isEmpty();
    }

    @Test
    void moreAccessThanTheCachedRegistrationHasIsAMiss() {
        RegistrationCache<MemorySegment> cache = new RegistrationCache<>(registrar, true, 1 << 20);
        MemorySegment buffer = Arena.ofAuto().allocate(4096);
        cache.release(cache.acquire(buffer, 1));
        cache.release(cache.acquire(buffer, 1 | 4));
        assertThat(cache.misses()).isEqualTo(2);
    }

    @Test
    void memoryWhoseArenaClosedIsNeverHandedOutAgainAndIsDeregistered() {
        RegistrationCache<MemorySegment> cache = new RegistrationCache<>(registrar, true, 1 << 20);
        MemorySegment freed;
        try (Arena arena = Arena.ofConfined()) {
            freed = arena.allocate(4096);
            cache.release(cache.acquire(freed, 1));
        }
        assertThat(deregistered).isEmpty();
        MemorySegment other = Arena.ofAuto().allocate(4096);
        cache.release(cache.acquire(other, 1));
        assertThat(cache.invalidations()).isEqualTo(1);
        assertThat(deregistered).hasSize(1);
        assertThat(cache.size()).isEqualTo(1);
    }

    @Test
    void pastTheLimitTheLeastRecentlyUsedIdleRegistrationsGoFirst() {
        RegistrationCache<MemorySegment> cache = new RegistrationCache<>(registrar, true, 8192);
        MemorySegment a = Arena.ofAuto().allocate(4096);
        MemorySegment b = Arena.ofAuto().allocate(4096);
        MemorySegment c = Arena.ofAuto().allocate(4096);
        cache.release(cache.acquire(a, 1));
        cache.release(cache.acquire(b, 1));
        RegistrationCache.Entry<MemorySegment> inUse = cache.acquire(c, 1);
        cache.release(cache.acquire(a, 1));
        assertThat(deregistered).as("b is the least recently used of the idle ones").containsExactly(b);
        cache.release(inUse);
        assertThat(cache.cachedBytes()).isLessThanOrEqualTo(8192);
    }

    @Test
    void withTheCacheOffEveryReleaseDeregisters() {
        RegistrationCache<MemorySegment> cache = new RegistrationCache<>(registrar, false, 1 << 20);
        MemorySegment buffer = Arena.ofAuto().allocate(4096);
        cache.release(cache.acquire(buffer, 1));
        cache.release(cache.acquire(buffer, 1));
        assertThat(registered).hasSize(2);
        assertThat(deregistered).hasSize(2);
        assertThat(cache.hits()).isZero();
        assertThat(cache.size()).isZero();
    }
}
