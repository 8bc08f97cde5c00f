package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.verbs.Ibv.QpState;
import org.jmca.btl.verbs.Ibv.QpType;
import org.jmca.btl.verbs.Ibv.WcStatus;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * What every {@link Verbs} device must do, as a user of libibverbs expects it: run against the
 * software device, and against rdma-core's where an HCA exists.
 */
abstract class VerbsContract {
    static final int QKEY = 0x11111111;

    /** Two devices of one fabric, a and b (different ports). */
    protected abstract Verbs[] openPair() throws Exception;

    protected abstract void closePair() throws Exception;

    /** Takes the link of device {@code v} down or up; devices that cannot return false. */
    protected abstract boolean linkDown(Verbs v, boolean down);

    /**
     * The process owning device {@code v} dies: its port goes away without a word (the device is
     * closed, and closePair must not close it again). Devices that cannot return false.
     */
    protected abstract boolean peerDies(Verbs v);

    Verbs a;
    Verbs b;
    Arena arena;
    Verbs.ProtectionDomain pdA;
    Verbs.ProtectionDomain pdB;
    Verbs.CompletionQueue cqA;
    Verbs.CompletionQueue cqB;

    @BeforeEach
    void open() throws Exception {
        Verbs[] pair = openPair();
        a = pair[0];
        b = pair[1];
        arena = Arena.ofShared();
        pdA = a.allocPd();
        pdB = b.allocPd();
        cqA = a.createCq(256);
        cqB = b.createCq(256);
    }

    @AfterEach
    void close() throws Exception {
        closePair();
        if (arena != null) { // null when openPair was skipped
            arena.close();
        }
    }

    MemoryRegion region(Verbs.ProtectionDomain pd, long bytes, int access) {
        return pd.register(arena.allocate(bytes, 64), access);
    }

    static MemorySegment bytes(MemoryRegion mr) {
        return MemorySegment.ofAddress(mr.address()).reinterpret(mr.length());
    }

    /** Brings a pair of RC queue pairs to RTS, connected to each other. */
    Verbs.QueuePair[] connect(int rnrRetry, int retryCount, int timeout) {
        Verbs.QueuePair qa = pdA.createQp(QpType.RC, cqA, cqA, 64, 64);
        Verbs.QueuePair qb = pdB.createQp(QpType.RC, cqB, cqB, 64, 64);
        int access = Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_READ | Ibv.ACCESS_REMOTE_WRITE;
        for (Verbs.QueuePair qp : List.of(qa, qb)) {
            QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).accessFlags(access);
            qp.modify(init, init.mask());
        }
        toRts(qa, b.lid(), qb.qpNum(), 100, 200, rnrRetry, retryCount, timeout);
        toRts(qb, a.lid(), qa.qpNum(), 200, 100, rnrRetry, retryCount, timeout);
        return new Verbs.QueuePair[] {qa, qb};
    }

    static void toRts(Verbs.QueuePair qp, int lid, int qpn, int rqPsn, int sqPsn, int rnrRetry, int retryCount,
                      int timeout) {
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).destLid(lid).pathMtu(5).destQpn(qpn).rqPsn(rqPsn)
                .maxDestRdAtomic(1).minRnrTimer(1);
        qp.modify(rtr, rtr.mask());
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(sqPsn).timeout(timeout).retryCount(retryCount)
                .rnrRetry(rnrRetry).maxRdAtomic(1);
        qp.modify(rts, rts.mask());
    }

    /** Polls both queues until {@code n} completions of {@code cq} have come (or fails after 5 s). */
    List<WorkCompletion> await(Verbs.CompletionQueue cq, int n) {
        List<WorkCompletion> got = new ArrayList<>();
        WorkCompletion[] batch = new WorkCompletion[16];
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (got.size() < n) {
            for (Verbs.CompletionQueue other : List.of(cqA, cqB)) {
                if (other != cq) {
                    other.poll(new WorkCompletion[0], 0);
                }
            }
            int k = cq.poll(batch, Math.min(batch.length, n - got.size()));
            got.addAll(java.util.Arrays.asList(batch).subList(0, k));
            assertThat(System.nanoTime()).as("completions after 5 s: %s", got).isLessThan(deadline);
        }
        return got;
    }

    @Test
    void rcSendsArriveInOrderExactlyOnceWithImmediateData() {
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        MemoryRegion send = region(pdA, 64 * 100, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion recv = region(pdB, 64 * 100, Ibv.ACCESS_LOCAL_WRITE);
        for (int i = 0; i < 50; i++) {
            qp[1].postRecv(new RecvRequest(1000 + i, List.of(recv.sge(recv.address() + 64L * i, 64))));
        }
        for (int i = 0; i < 50; i++) {
            bytes(send).set(ValueLayout.JAVA_INT, 64L * i, i * 7);
            qp[0].postSend(SendRequest.sendWithImm(i, List.of(send.sge(send.address() + 64L * i, 4 + i)), i + 1));
        }
        List<WorkCompletion> arrived = await(cqB, 50);
        for (int i = 0; i < 50; i++) {
            WorkCompletion wc = arrived.get(i);
            assertThat(wc.status()).isEqualTo(WcStatus.SUCCESS);
            assertThat(wc.wrId()).isEqualTo(1000 + i);
            assertThat(wc.byteLength()).isEqualTo(4 + i);
            assertThat(wc.immData()).isEqualTo(i + 1);
            assertThat(wc.withImm()).isTrue();
            assertThat(wc.srcQp()).isEqualTo(qp[0].qpNum());
            assertThat(bytes(recv).get(ValueLayout.JAVA_INT, 64L * i)).isEqualTo(i * 7);
        }
        List<WorkCompletion> sent = await(cqA, 50);
        assertThat(sent).extracting(WorkCompletion::wrId).containsExactlyElementsOf(
                java.util.stream.LongStream.range(0, 50).boxed().toList());
        assertThat(cqB.poll(new WorkCompletion[4], 4)).as("nothing delivered twice").isZero();
    }

    @Test
    void aSendWithoutAReceiveIsRetriedAfterRnrAndDeliveredOnceOneIsPosted() {
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        MemoryRegion send = region(pdA, 64, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion recv = region(pdB, 64, Ibv.ACCESS_LOCAL_WRITE);
        bytes(send).set(ValueLayout.JAVA_LONG, 0, 42);
        qp[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        for (int i = 0; i < 20; i++) {
            assertThat(cqA.poll(new WorkCompletion[1], 1)).as("no completion before the receiver took it").isZero();
            cqB.poll(new WorkCompletion[0], 0);
        }
        qp[1].postRecv(new RecvRequest(2, List.of(recv.sge(recv.address(), 64))));
        assertThat(await(cqB, 1).getFirst().byteLength()).isEqualTo(8);
        assertThat(bytes(recv).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(42);
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
    }

    @Test
    void rnrRetryZeroFailsTheSendAndFlushesTheRest() {
        Verbs.QueuePair[] qp = connect(0, 7, 14);
        MemoryRegion send = region(pdA, 64, Ibv.ACCESS_LOCAL_WRITE);
        qp[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        qp[0].postSend(SendRequest.send(2, List.of(send.sge(send.address(), 8))));
        List<WorkCompletion> done = await(cqA, 2);
        assertThat(done).extracting(WorkCompletion::status)
                .containsExactly(WcStatus.RNR_RETRY_EXC_ERR, WcStatus.WR_FLUSH_ERR);
        assertThat(qp[0].state()).isEqualTo(QpState.ERR);
        qp[0].postSend(SendRequest.send(3, List.of(send.sge(send.address(), 8))));
        assertThat(await(cqA, 1).getFirst().status()).as("work posted in ERR is flushed").isEqualTo(WcStatus.WR_FLUSH_ERR);
    }

    @Test
    void modifyQpRefusesAMaskWithoutTheRequiredAttributes() {
        Verbs.QueuePair qp = pdA.createQp(QpType.RC, cqA, cqA, 4, 4);
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1);
        assertThatThrownBy(() -> qp.modify(init, init.mask())).isInstanceOf(VerbsException.class)
                .hasMessageContaining("RESET -> INIT").hasMessageContaining("lacks IBV_QP_ACCESS_FLAGS");
        init.accessFlags(0);
        qp.modify(init, init.mask());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR).destLid(b.lid()).pathMtu(5).rqPsn(0)
                .maxDestRdAtomic(1).minRnrTimer(1).sqPsn(0);
        assertThatThrownBy(() -> qp.modify(rtr, rtr.mask())).hasMessageContaining("lacks IBV_QP_DEST_QPN")
                .hasMessageContaining("may not hold IBV_QP_SQ_PSN");
        QpAttributes rts = new QpAttributes().state(QpState.RTS);
        assertThatThrownBy(() -> qp.modify(rts, rts.mask())).hasMessageContaining("no transition from INIT to RTS");
        assertThat(qp.state()).isEqualTo(QpState.INIT);
    }

    @Test
    void rdmaReadAndWriteNeedTheRightRkeyAndAccess() {
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        MemoryRegion local = region(pdA, 4096, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion readable = region(pdB, 4096, Ibv.ACCESS_REMOTE_READ);
        MemoryRegion writable = region(pdB, 4096, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
        bytes(readable).fill((byte) 9);
        qp[0].postSend(SendRequest.rdma(1, Ibv.Opcode.RDMA_READ, List.of(local.sge(local.address(), 4096)),
                readable.address(), readable.rkey()));
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(bytes(local).get(ValueLayout.JAVA_BYTE, 4095)).isEqualTo((byte) 9);
        qp[0].postSend(SendRequest.rdma(2, Ibv.Opcode.RDMA_WRITE, List.of(local.sge(local.address(), 100)),
                writable.address() + 8, writable.rkey()));
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(bytes(writable).get(ValueLayout.JAVA_BYTE, 107)).isEqualTo((byte) 9);
        assertThat(bytes(writable).get(ValueLayout.JAVA_BYTE, 108)).isZero();
        qp[0].postSend(SendRequest.rdma(3, Ibv.Opcode.RDMA_WRITE, List.of(local.sge(local.address(), 8)),
                readable.address(), readable.rkey()));
        assertThat(await(cqA, 1).getFirst().status()).as("writing a read-only region").isEqualTo(WcStatus.REM_ACCESS_ERR);
        assertThat(qp[0].state()).isEqualTo(QpState.ERR);
    }

    @Test
    void readingPastTheEndOfARegionOrWithAStaleRkeyIsARemoteAccessError() {
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        MemoryRegion local = region(pdA, 8192, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion remote = region(pdB, 4096, Ibv.ACCESS_REMOTE_READ);
        qp[0].postSend(SendRequest.rdma(1, Ibv.Opcode.RDMA_READ, List.of(local.sge(local.address(), 4097)),
                remote.address(), remote.rkey()));
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.REM_ACCESS_ERR);
        Verbs.QueuePair[] again = connect(7, 7, 14);
        pdB.deregister(remote);
        again[0].postSend(SendRequest.rdma(2, Ibv.Opcode.RDMA_READ, List.of(local.sge(local.address(), 8)),
                remote.address(), remote.rkey()));
        assertThat(await(cqA, 1).getFirst().status()).as("after ibv_dereg_mr").isEqualTo(WcStatus.REM_ACCESS_ERR);
    }

    @Test
    void atomicsReturnTheOldValueAndNeedRemoteAtomicAccessAndAlignment() {
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        Verbs.QueuePair[] other = connect(7, 7, 14);
        MemoryRegion result = region(pdA, 64, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion counter = region(pdB, 64, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_ATOMIC);
        MemoryRegion plain = region(pdB, 64, Ibv.ACCESS_LOCAL_WRITE | Ibv.ACCESS_REMOTE_WRITE);
        for (int i = 0; i < 10; i++) {
            Verbs.QueuePair via = (i % 2 == 0 ? qp : other)[0];
            via.postSend(SendRequest.fetchAndAdd(i, result.sge(result.address() + 8, 8), counter.address(),
                    counter.rkey(), 5));
            assertThat(await(cqA, 1).getFirst().opcode()).isEqualTo(Ibv.WcOpcode.FETCH_ADD);
            assertThat(bytes(result).get(ValueLayout.JAVA_LONG, 8)).as("old value %d", i).isEqualTo(5L * i);
        }
        assertThat(bytes(counter).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(50);
        qp[0].postSend(SendRequest.compareAndSwap(20, result.sge(result.address(), 8), counter.address(), counter.rkey(),
                49, 7));
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(bytes(counter).get(ValueLayout.JAVA_LONG, 0)).as("no swap: 50 is not 49").isEqualTo(50);
        qp[0].postSend(SendRequest.compareAndSwap(21, result.sge(result.address(), 8), counter.address(), counter.rkey(),
                50, 7));
        assertThat(await(cqA, 1).getFirst().opcode()).isEqualTo(Ibv.WcOpcode.COMP_SWAP);
        assertThat(bytes(result).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(50);
        assertThat(bytes(counter).get(ValueLayout.JAVA_LONG, 0)).isEqualTo(7);
        qp[0].postSend(SendRequest.fetchAndAdd(22, result.sge(result.address(), 8), counter.address() + 4,
                counter.rkey(), 1));
        assertThat(await(cqA, 1).getFirst().status()).as("misaligned").isEqualTo(WcStatus.REM_INV_REQ_ERR);
        other[0].postSend(SendRequest.fetchAndAdd(23, result.sge(result.address(), 8), plain.address(), plain.rkey(), 1));
        assertThat(await(cqA, 1).getFirst().status()).as("no remote atomic access").isEqualTo(WcStatus.REM_ACCESS_ERR);
        assertThat(bytes(plain).get(ValueLayout.JAVA_LONG, 0)).isZero();
    }

    @Test
    void registrationChecksAccessFlagsAndLocalKeys() {
        assertThatThrownBy(() -> region(pdA, 64, Ibv.ACCESS_REMOTE_WRITE)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("needs IBV_ACCESS_LOCAL_WRITE");
        Verbs.QueuePair[] qp = connect(7, 7, 14);
        MemoryRegion readOnly = region(pdB, 64, 0);
        assertThatThrownBy(() -> qp[1].postRecv(new RecvRequest(1, List.of(readOnly.sge(readOnly.address(), 64)))))
                .hasMessageContaining("local write");
        MemoryRegion send = region(pdA, 64, 0);
        qp[0].postSend(SendRequest.send(1, List.of(new Sge(send.address(), 65, send.lkey()))));
        assertThat(await(cqA, 1).getFirst().status()).as("a gather element past its region")
                .isEqualTo(WcStatus.LOC_PROT_ERR);
    }

    @Test
    void aCompletionQueueThatOverrunsFailsItsPoll() {
        Verbs.CompletionQueue tiny = a.createCq(2);
        Verbs.QueuePair ud = pdA.createQp(QpType.UD, tiny, tiny, 8, 8);
        toUdRts(ud);
        MemoryRegion send = region(pdA, 64, 0);
        for (int i = 0; i < 3; i++) {
            ud.postSend(SendRequest.datagram(i, List.of(send.sge(send.address(), 8)),
                    new SendRequest.Destination(b.lid(), 999, QKEY)));
        }
        assertThatThrownBy(() -> tiny.poll(new WorkCompletion[4], 4)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("overran its depth of 2");
    }

    static void toUdRts(Verbs.QueuePair ud) {
        QpAttributes init = new QpAttributes().state(QpState.INIT).pkeyIndex(0).port(1).qkey(QKEY);
        ud.modify(init, init.mask());
        QpAttributes rtr = new QpAttributes().state(QpState.RTR);
        ud.modify(rtr, rtr.mask());
        QpAttributes rts = new QpAttributes().state(QpState.RTS).sqPsn(0);
        ud.modify(rts, rts.mask());
    }

    @Test
    void datagramsCarryAGrhAreDroppedWithoutAReceiveAndAreLimitedByTheMtu() {
        Verbs.QueuePair sender = pdA.createQp(QpType.UD, cqA, cqA, 8, 8);
        Verbs.QueuePair receiver = pdB.createQp(QpType.UD, cqB, cqB, 8, 8);
        toUdRts(sender);
        toUdRts(receiver);
        MemoryRegion send = region(pdA, 8192, 0);
        MemoryRegion recv = region(pdB, 8192, Ibv.ACCESS_LOCAL_WRITE);
        SendRequest.Destination to = new SendRequest.Destination(b.lid(), receiver.qpNum(), QKEY);
        bytes(send).set(ValueLayout.JAVA_LONG, 0, 77);
        sender.postSend(SendRequest.datagram(1, List.of(send.sge(send.address(), 8)), to));
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        // A send completes when the datagram leaves; a probe to a second QP behind it tells when it
        // has reached the receiving port (packets between two ports keep their order), so the
        // first has met the empty receive queue by then, wherever the ports are.
        Verbs.CompletionQueue probeCq = b.createCq(4);
        Verbs.QueuePair probe = pdB.createQp(QpType.UD, probeCq, probeCq, 8, 8);
        toUdRts(probe);
        probe.postRecv(new RecvRequest(6, List.of(recv.sge(recv.address(), 8192))));
        sender.postSend(SendRequest.datagram(9, List.of(send.sge(send.address(), 8)),
                new SendRequest.Destination(b.lid(), probe.qpNum(), QKEY)));
        assertThat(await(probeCq, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        receiver.postRecv(new RecvRequest(5, List.of(recv.sge(recv.address(), 8192))));
        assertThat(cqB.poll(new WorkCompletion[1], 1)).as("the datagram sent before the receive was dropped").isZero();
        sender.postSend(SendRequest.datagram(2, List.of(send.sge(send.address(), 8)),
                new SendRequest.Destination(b.lid(), receiver.qpNum(), QKEY + 1)));
        sender.postSend(SendRequest.datagram(3, List.of(send.sge(send.address(), 8)), to));
        WorkCompletion got = await(cqB, 1).getFirst();
        assertThat(got.withGrh()).isTrue();
        assertThat(got.byteLength()).isEqualTo(Ibv.GRH_BYTES + 8);
        assertThat(got.slid()).isEqualTo(a.lid());
        assertThat(got.srcQp()).isEqualTo(sender.qpNum());
        assertThat(bytes(recv).get(ValueLayout.JAVA_LONG, Ibv.GRH_BYTES)).isEqualTo(77);
        sender.postSend(SendRequest.datagram(4, List.of(send.sge(send.address(), 4097)), to));
        assertThat(await(cqA, 3).getLast().status()).isEqualTo(WcStatus.LOC_LEN_ERR);
        probe.destroy();
        probeCq.destroy();
    }

    @Test
    void sendsToAPeerWhoseProcessDiedExhaustTheRetriesAndFail() {
        Verbs.QueuePair[] qps = connect(7, 2, 8);
        MemoryRegion send = region(pdA, 64, 0);
        org.junit.jupiter.api.Assumptions.assumeTrue(peerDies(b), "this device cannot lose a peer on demand");
        qps[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        WorkCompletion[] got = new WorkCompletion[1];
        long deadline = System.nanoTime() + 5_000_000_000L;
        while (cqA.poll(got, 1) == 0) {
            assertThat(System.nanoTime()).as("the send to the dead peer completes").isLessThan(deadline);
        }
        assertThat(got[0].status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
        assertThat(qps[0].state()).isEqualTo(QpState.ERR);
    }

    @Test
    void aBlockingPollWaitsForTheNextCompletionOrTheTimeout() {
        Verbs.QueuePair[] qps = connect(7, 7, 14);
        MemoryRegion recv = region(pdB, 64, Ibv.ACCESS_LOCAL_WRITE);
        qps[1].postRecv(new RecvRequest(3, List.of(recv.sge(recv.address(), 64))));
        long start = System.nanoTime();
        assertThat(cqB.pollBlocking(new WorkCompletion[4], 4, 50_000_000L)).isZero();
        assertThat(System.nanoTime() - start).as("waited for the timeout").isGreaterThanOrEqualTo(40_000_000L);
        MemoryRegion send = region(pdA, 64, 0);
        qps[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        WorkCompletion[] got = new WorkCompletion[4];
        assertThat(cqB.pollBlocking(got, 4, 5_000_000_000L)).isEqualTo(1);
        assertThat(got[0].wrId()).isEqualTo(3);
    }

    @Test
    void aDatagramToAMulticastGroupReachesEveryAttachedQueuePairOnEveryPortUntilItDetaches() {
        MulticastGroup group = MulticastGroup.of(0xC007);
        Verbs.QueuePair sender = pdA.createQp(QpType.UD, cqA, cqA, 8, 8);
        Verbs.QueuePair[] members = {pdA.createQp(QpType.UD, cqA, cqA, 8, 8), pdB.createQp(QpType.UD, cqB, cqB, 8, 8),
                pdB.createQp(QpType.UD, cqB, cqB, 8, 8)};
        Verbs.QueuePair outsider = pdB.createQp(QpType.UD, cqB, cqB, 8, 8);
        MemoryRegion recvA = region(pdA, 4096, Ibv.ACCESS_LOCAL_WRITE);
        MemoryRegion recvB = region(pdB, 4096, Ibv.ACCESS_LOCAL_WRITE);
        toUdRts(sender);
        toUdRts(outsider);
        outsider.postRecv(new RecvRequest(99, List.of(recvB.sge(recvB.address() + 3072, 1024))));
        for (int i = 0; i < members.length; i++) {
            toUdRts(members[i]);
            members[i].attachMulticast(group);
            MemoryRegion recv = i == 0 ? recvA : recvB;
            for (int k = 0; k < 2; k++) {
                members[i].postRecv(new RecvRequest(10 * i + k, List.of(recv.sge(recv.address() + 1024L * i + 512L * k, 512))));
            }
        }
        MemoryRegion send = region(pdA, 64, 0);
        bytes(send).set(ValueLayout.JAVA_LONG, 0, 4242);
        sender.postSend(SendRequest.datagram(1, List.of(send.sge(send.address(), 8)), group.destination(QKEY)));
        List<WorkCompletion> onA = await(cqA, 2); // the send, and the member on the sender's own port
        assertThat(onA).extracting(WorkCompletion::wrId).containsExactlyInAnyOrder(1L, 0L);
        List<WorkCompletion> onB = await(cqB, 2);
        assertThat(onB).extracting(WorkCompletion::wrId).containsExactlyInAnyOrder(10L, 20L);
        assertThat(onB).allSatisfy(wc -> {
            assertThat(wc.srcQp()).isEqualTo(sender.qpNum());
            assertThat(wc.slid()).isEqualTo(a.lid());
            assertThat(bytes(recvB).get(ValueLayout.JAVA_LONG, 1024L * (wc.wrId() / 10) + Ibv.GRH_BYTES))
                    .isEqualTo(4242);
        });

        members[2].detachMulticast(group);
        sender.postSend(SendRequest.datagram(2, List.of(send.sge(send.address(), 8)), group.destination(QKEY)));
        await(cqA, 2);
        assertThat(await(cqB, 1)).extracting(WorkCompletion::wrId).containsExactly(11L);
        assertThat(cqB.poll(new WorkCompletion[4], 4)).as("nothing for the detached or the outsider").isZero();
        assertThatThrownBy(() -> members[2].detachMulticast(group)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("not attached");
        Verbs.QueuePair rc = pdB.createQp(QpType.RC, cqB, cqB, 8, 8);
        assertThatThrownBy(() -> rc.attachMulticast(group)).isInstanceOf(VerbsException.class)
                .hasMessageContaining("only UD");
    }

    @Test
    void aLinkThatStaysDownExhaustsTheRetriesAndTheQueuePairFails() {
        Verbs.QueuePair[] qp = connect(7, 2, 1);
        MemoryRegion send = region(pdA, 64, 0);
        if (!linkDown(a, true)) {
            return;
        }
        qp[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        List<WorkCompletion> done = await(cqA, 1);
        assertThat(done.getFirst().status()).isEqualTo(WcStatus.RETRY_EXC_ERR);
        assertThat(qp[0].state()).isEqualTo(QpState.ERR);
        linkDown(a, false);
    }

    @Test
    void aLinkThatComesBackBeforeTheRetriesRunOutLosesNothing() throws Exception {
        Verbs.QueuePair[] qp = connect(7, 7, 18);
        MemoryRegion send = region(pdA, 64, 0);
        MemoryRegion recv = region(pdB, 64, Ibv.ACCESS_LOCAL_WRITE);
        qp[1].postRecv(new RecvRequest(9, List.of(recv.sge(recv.address(), 64))));
        if (!linkDown(a, true)) {
            return;
        }
        qp[0].postSend(SendRequest.send(1, List.of(send.sge(send.address(), 8))));
        for (int i = 0; i < 10; i++) {
            assertThat(cqB.poll(new WorkCompletion[1], 1)).isZero();
        }
        linkDown(a, false);
        Thread.sleep(5);
        assertThat(await(cqB, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
        assertThat(await(cqA, 1).getFirst().status()).isEqualTo(WcStatus.SUCCESS);
    }
}
