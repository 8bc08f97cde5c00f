package org.jmca.btl.verbs;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.List;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.common.verbs.UdPort;

/**
 * A UD queue pair of its own on btl/verbs's device, for coll/mcast: receives of one MTU (plus the
 * GRH) kept posted in registered memory, sends copied into a ring of registered slots, each slot
 * reused once its send completed.
 */
final class VerbsUdPort implements UdPort {
    /** The Q_Key of coll/mcast's datagrams (its own, so btl/verbs's datagrams never reach it). */
    private static final int QKEY = 0x4A4D4354;
    private static final int SEND_SLOTS = 64;

    private final Verbs device;
    private final Verbs.ProtectionDomain pd;
    private final Verbs.CompletionQueue sendCq;
    private final Verbs.CompletionQueue recvCq;
    private final Verbs.QueuePair qp;
    private final Arena arena = Arena.ofShared();
    private final int mtu;
    private final int receiveSlot;
    private final MemoryRegion receives;
    private final MemoryRegion sends;
    private final WorkCompletion[] completions = new WorkCompletion[16];
    private final WorkCompletion[] received = new WorkCompletion[1];
    private long sendsPosted;
    private long sendsCompleted;
    private boolean closed;

    VerbsUdPort(Verbs device, int receiveBuffers) {
        this.device = device;
        this.mtu = Ibv.mtuBytes(device.activeMtu());
        this.receiveSlot = Ibv.GRH_BYTES + mtu;
        this.pd = device.allocPd();
        this.sendCq = device.createCq(2 * SEND_SLOTS);
        this.recvCq = device.createCq(receiveBuffers + 16);
        this.qp = pd.createQp(Ibv.QpType.UD, sendCq, recvCq, SEND_SLOTS, receiveBuffers);
        readyToSend(qp, QKEY);
        this.receives = pd.register(arena.allocate((long) receiveBuffers * receiveSlot, 64), Ibv.ACCESS_LOCAL_WRITE);
        this.sends = pd.register(arena.allocate((long) SEND_SLOTS * mtu, 64), 0);
        for (int i = 0; i < receiveBuffers; i++) {
            postReceive(i);
        }
    }

    private void postReceive(int slot) {
        qp.postRecv(new RecvRequest(slot, List.of(receives.sge(receives.address() + (long) slot * receiveSlot,
                receiveSlot))));
    }

    @Override
    public long address() {
        return (long) device.lid() << 24 | qp.qpNum();
    }

    @Override
    public int maxDatagram() {
        return mtu;
    }

    @Override
    public void join(int group) {
        qp.attachMulticast(MulticastGroup.of(MulticastGroup.FIRST_MLID + group));
    }

    @Override
    public void leave(int group) {
        qp.detachMulticast(MulticastGroup.of(MulticastGroup.FIRST_MLID + group));
    }

    @Override
    public void multicast(int group, ByteBuffer packet) {
        send(packet, MulticastGroup.of(MulticastGroup.FIRST_MLID + group).destination(QKEY));
    }

    @Override
    public void unicast(long address, ByteBuffer packet) {
        send(packet, new SendRequest.Destination((int) (address >>> 24), (int) (address & 0xFFFFFF), QKEY));
    }

    /** Copies the datagram into the next free send slot and posts it; waits for a slot when all are in flight. */
    private void send(ByteBuffer packet, SendRequest.Destination to) {
        while (sendsPosted - sendsCompleted >= SEND_SLOTS) {
            reapSends();
        }
        long at = sends.address() + (sendsPosted % SEND_SLOTS) * mtu;
        int length = packet.remaining();
        MemorySegment slot = MemorySegment.ofAddress(at).reinterpret(length);
        MemorySegment.copy(MemorySegment.ofBuffer(packet), 0, slot, 0, length);
        qp.postSend(SendRequest.datagram(sendsPosted, List.of(sends.sge(at, length)), to));
        sendsPosted++;
        reapSends();
    }

    private void reapSends() {
        int n = sendCq.poll(completions, completions.length);
        // a failed datagram is a lost one: the reliability above resends it
        sendsCompleted += n;
    }

    @Override
    public boolean receive(ByteBuffer into) {
        if (recvCq.poll(received, 1) == 0) {
            return false;
        }
        WorkCompletion wc = received[0];
        int slot = (int) wc.wrId();
        into.clear();
        if (wc.ok()) {
            int length = wc.byteLength() - Ibv.GRH_BYTES;
            long at = receives.address() + (long) slot * receiveSlot + Ibv.GRH_BYTES;
            MemorySegment.copy(MemorySegment.ofAddress(at).reinterpret(length), 0, MemorySegment.ofBuffer(into), 0,
                    length);
            into.limit(length);
        } else {
            into.limit(0);
        }
        postReceive(slot);
        return true;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            qp.destroy();
            recvCq.destroy();
            sendCq.destroy();
            pd.deallocate();
        } catch (RuntimeException e) {
            // the device closed first (btl/verbs finalized): its resources went with it
        }
        arena.close();
    }

    /** Brings a new UD queue pair to ready-to-send on port 1 with {@code qkey}: INIT, RTR, RTS, as a UD QP goes. */
    static void readyToSend(Verbs.QueuePair qp, int qkey) {
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(qkey);
        qp.modify(init, init.mask());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR);
        qp.modify(rtr, rtr.mask());
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(0);
        qp.modify(rts, rts.mask());
    }
}
