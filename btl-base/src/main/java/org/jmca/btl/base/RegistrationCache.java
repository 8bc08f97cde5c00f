package org.jmca.btl.base;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;

/**
 * Registered memory kept for reuse, as Open MPI's rcache does: registering (pinning pages,
 * telling the NIC) costs far more than a lookup, and applications send from the same buffers
 * again and again.
 *
 * <p>An {@link #acquire} finds a registration that covers the memory with at least the access
 * asked for (a hit) or makes one (a miss); {@link #release} gives it back. Unused registrations
 * stay, most recently used first, until their bytes pass the limit; then the least recently used
 * unused ones are deregistered. A registration whose memory has been freed — its segment's scope
 * is no longer alive: the arena was closed — is never handed out again and is deregistered at the
 * next acquire (Java cannot free memory behind a live segment, so the scope is the memory hook).
 * With the cache off, every release deregisters at once.
 *
 * <p>Used by the thread that owns progress.
 *
 * @param <R> the transport's registration (a verbs memory region)
 */
public final class RegistrationCache<R> {

    /** How the transport registers and deregisters memory. */
    public interface Registrar<R> {
        R register(MemorySegment memory, int access);

        void deregister(R registration);
    }

    /** A registration handed out by {@link #acquire}. */
    public static final class Entry<R> {
        private final MemorySegment memory;
        private final int access;
        private final R registration;
        private int users;

        private Entry(MemorySegment memory, int access, R registration) {
            this.memory = memory;
            this.access = access;
            this.registration = registration;
        }

        public R registration() {
            return registration;
        }

        boolean covers(MemorySegment wanted, int wantedAccess) {
            long start = memory.address();
            return memory.scope().isAlive() && (access & wantedAccess) == wantedAccess && wanted.address() >= start
                    && wanted.address() + wanted.byteSize() <= start + memory.byteSize();
        }
    }

    private final Registrar<R> registrar;
    private final boolean enabled;
    private final long limitBytes;
    /** Every live registration, least recently used first. */
    private final LinkedHashMap<Entry<R>, Boolean> entries = new LinkedHashMap<>(16, 0.75f, true);
    private long cachedBytes;
    private long hits;
    private long misses;
    private long evictions;
    private long invalidations;

    public RegistrationCache(Registrar<R> registrar, boolean enabled, long limitBytes) {
        this.registrar = registrar;
        this.enabled = enabled;
        this.limitBytes = limitBytes;
    }

    /** A registration of {@code memory} (native) with at least {@code access}; give it back with {@link #release}. */
    public Entry<R> acquire(MemorySegment memory, int access) {
        if (enabled) {
            Entry<R> found = null;
            for (Iterator<Entry<R>> it = entries.keySet().iterator(); it.hasNext(); ) {
                Entry<R> entry = it.next();
                if (!entry.memory.scope().isAlive() && entry.users == 0) {
                    it.remove();
                    drop(entry);
                    invalidations++;
                } else if (found == null && entry.covers(memory, access)) {
                    found = entry;
                }
            }
            if (found != null) {
                entries.get(found); // most recently used now
                found.users++;
                hits++;
                return found;
            }
        }
        misses++;
        Entry<R> entry = new Entry<>(memory, access, registrar.register(memory, access));
        entry.users = 1;
        entries.put(entry, Boolean.TRUE);
        cachedBytes += memory.byteSize();
        return entry;
    }

    public void release(Entry<R> entry) {
        if (--entry.users > 0) {
            return;
        }
        if (!enabled || !entry.memory.scope().isAlive()) {
            entries.remove(entry);
            drop(entry);
            return;
        }
        if (cachedBytes > limitBytes) {
            List<Entry<R>> idle = new ArrayList<>();
            for (Entry<R> candidate : entries.keySet()) {
                if (candidate.users == 0) {
                    idle.add(candidate);
                }
            }
            for (Iterator<Entry<R>> it = idle.iterator(); it.hasNext() && cachedBytes > limitBytes; ) {
                Entry<R> victim = it.next();
                entries.remove(victim);
                drop(victim);
                evictions++;
            }
        }
    }

    private void drop(Entry<R> entry) {
        cachedBytes -= entry.memory.byteSize();
        registrar.deregister(entry.registration);
    }

    /** Deregisters everything (at finalize). */
    public void clear() {
        for (Entry<R> entry : entries.keySet()) {
            drop(entry);
        }
        entries.clear();
    }

    public long hits() {
        return hits;
    }

    public long misses() {
        return misses;
    }

    public long evictions() {
        return evictions;
    }

    public long invalidations() {
        return invalidations;
    }

    public long cachedBytes() {
        return cachedBytes;
    }

    /** How many registrations are live (handed out or cached). */
    public int size() {
        return entries.size();
    }

    @Override
    public String toString() {
        return "RegistrationCache[" + (enabled ? "on" : "off") + ", " + entries.size() + " registrations, " + cachedBytes
                + " bytes, hits " + hits + ", misses " + misses + "]";
    }
}
