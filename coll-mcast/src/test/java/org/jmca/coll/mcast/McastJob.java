package org.jmca.coll.mcast;

import java.lang.foreign.MemorySegment;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.jmca.mca.coll.CollCommunicator;

/**
 * A job of ranks as threads, each with its own carrier and engine, that runs a list of
 * broadcasts on the world communicator and on the two halves a split by parity gives (which
 * share one context, as a split's communicators do) and checks every rank's buffer after every
 * call. A rank that is done keeps
 * progressing until all are, as MPI_Finalize's barrier keeps a root answering.
 */
final class McastJob {

    /** One broadcast: on each half or on the world, from {@code root} (modulo the communicator's size), of {@code bytes}. */
    record Call(boolean sub, int root, int bytes) {
    }

    /** What every rank's engine did, added up, and the first wrong buffer or failure, if any. */
    record Outcome(String failure, McastCounters total) {
    }

    private McastJob() {
    }

    /** The byte {@code index} of call {@code call}'s message; {@code salt} tells the two halves' messages apart. */
    static byte expected(int call, int index, int salt) {
        return (byte) (call * 31 + index * 7 + (index >>> 8) + salt * 101);
    }

    static Outcome run(int size, String[] hosts, McastSettings settings, List<Call> calls, long timeoutSeconds)
            throws InterruptedException {
        MulticastHere.nextPort();
        // a job number of its own, as a real job's comes from its random key: a datagram of
        // another process that happens to use the same port is then a stray, never data
        int job = new SecureRandom().nextInt();
        ThreadRanks fabric = new ThreadRanks("test-job-" + MulticastHere.port());
        int[] world = java.util.stream.IntStream.range(0, size).toArray();
        AtomicReference<String> failure = new AtomicReference<>();
        AtomicInteger finished = new AtomicInteger();
        CountDownLatch opened = new CountDownLatch(size);
        List<McastEngine> engines = java.util.Collections.synchronizedList(new ArrayList<>());
        List<Thread> threads = new ArrayList<>();
        for (int rank = 0; rank < size; rank++) {
            int me = rank;
            threads.add(Thread.ofPlatform().name("rank-" + me).start(() -> {
                McastEngine engine = null;
                try {
                    engine = new McastEngine(MulticastHere.open(), settings, job, me);
                    engines.add(engine);
                    CollCommunicator worldComm = fabric.communicator(10, me, world, hosts);
                    McastChannel worldChannel = engine.open(worldComm, new Topology(hosts, settings));
                    int[] half = java.util.stream.IntStream.range(0, size).filter(r -> r % 2 == me % 2).toArray();
                    String[] halfHosts = java.util.Arrays.stream(half).mapToObj(r -> hosts[r]).toArray(String[]::new);
                    McastChannel subChannel = null;
                    if (half.length > 1) {
                        CollCommunicator subComm = fabric.communicator(12, me / 2, half, halfHosts);
                        subChannel = engine.open(subComm, new Topology(halfHosts, settings));
                    }
                    opened.countDown();
                    opened.await();
                    for (int i = 0; i < calls.size() && failure.get() == null; i++) {
                        Call call = calls.get(i);
                        if (call.sub() && subChannel == null) {
                            continue;
                        }
                        McastChannel channel = call.sub() ? subChannel : worldChannel;
                        int root = call.root() % channel.topology.size();
                        int salt = call.sub() ? 1 + me % 2 : 0;
                        byte[] data = new byte[call.bytes()];
                        if (channel.rank == root) {
                            for (int j = 0; j < data.length; j++) {
                                data[j] = expected(i, j, salt);
                            }
                        }
                        BcastCall bcast = new BcastCall(engine, channel, MemorySegment.ofArray(data), root, 1000 + i);
                        while (!bcast.test()) {
                            if (failure.get() != null) {
                                return;
                            }
                            Thread.yield();
                        }
                        for (int j = 0; j < data.length; j++) {
                            if (data[j] != expected(i, j, salt)) {
                                failure.compareAndSet(null, "rank " + me + ", call " + i + " " + call + ": byte " + j
                                        + " is " + data[j] + ", not " + expected(i, j, salt) + " (its role "
                                        + channel.topology.plan(root).role[channel.rank] + ", attached "
                                        + channel.attached() + ")");
                                return;
                            }
                        }
                    }
                } catch (Throwable t) {
                    failure.compareAndSet(null, "rank " + me + ": " + t);
                } finally {
                    finished.incrementAndGet();
                    while (engine != null && finished.get() < size && failure.get() == null) {
                        engine.progress();
                        Thread.yield();
                    }
                }
            }));
        }
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(timeoutSeconds);
        for (Thread thread : threads) {
            thread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(deadline - System.nanoTime())));
        }
        if (threads.stream().anyMatch(Thread::isAlive)) {
            StringBuilder stacks = new StringBuilder();
            for (Thread thread : threads) {
                StackTraceElement[] stack = thread.getStackTrace();
                stacks.append(thread.getName()).append(' ')
                        .append(List.of(stack).subList(0, Math.min(6, stack.length))).append('\n');
            }
            failure.compareAndSet(null, "no progress for " + timeoutSeconds + " s:\n" + stacks);
            threads.forEach(Thread::interrupt);
            for (Thread thread : threads) {
                thread.join(5000);
            }
        }
        McastCounters total = new McastCounters();
        for (McastEngine engine : engines) {
            synchronized (engine) {
                McastCounters c = engine.counters;
                total.datagrams += c.datagrams;
                total.retransmissions += c.retransmissions;
                total.acks += c.acks;
                total.nacks += c.nacks;
                total.nacksSuppressed += c.nacksSuppressed;
                total.duplicates += c.duplicates;
                total.attaches += c.attaches;
                total.overruns += c.overruns;
                total.creditRequests += c.creditRequests;
            }
            engine.close();
        }
        return new Outcome(failure.get(), total);
    }
}
