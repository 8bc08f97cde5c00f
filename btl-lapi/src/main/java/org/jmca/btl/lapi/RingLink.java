package org.jmca.btl.lapi;

import java.lang.foreign.MemorySegment;
import java.util.Optional;
import org.jmca.btl.base.FutexDoorbell;
import org.jmca.btl.base.SharedRing;

/** A task on this host: this task's ring in its file, and its doorbell. */
final class RingLink implements Link {
    private final TaskFile file;
    private final SharedRing ring;
    private final FutexDoorbell bell;
    private final boolean ringBell;

    /**
     * @param file     the target's task file
     * @param sender   this task, whose ring in the file is written
     * @param ringBell whether the target runs a notification thread to wake
     */
    RingLink(TaskFile file, int sender, boolean ringBell) {
        this.file = file;
        this.ring = file.ring(sender);
        this.bell = file.sendersDoorbell();
        this.ringBell = ringBell;
    }

    @Override
    public boolean offer(byte kind, MemorySegment header, MemorySegment payload) {
        return ring.offer(kind, header, payload);
    }

    @Override
    public void wake() {
        if (ringBell) {
            bell.ringOnceIfArmed();
        }
    }

    @Override
    public String lost() {
        if (file.isOpen()) {
            return null;
        }
        Optional<ProcessHandle> owner = ProcessHandle.of(file.ownerPid);
        return owner.isPresent() && owner.get().isAlive() ? "it closed its LAPI context"
                : "its process (pid " + file.ownerPid + ") is gone";
    }
}
