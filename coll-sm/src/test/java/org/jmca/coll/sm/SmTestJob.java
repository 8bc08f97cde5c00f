package org.jmca.coll.sm;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.jmca.mca.PerformanceVariable;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollCommunicator;
import org.jmca.mca.coll.CollComponent;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.CollModule;
import org.jmca.mca.coll.CollOffer;
import org.jmca.mca.coll.CollRequest;
import org.jmca.mca.coll.CollSelection;
import org.jmca.mca.coll.CollTable;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.PmlStatus;
import org.jmca.mca.progress.ProgressCallback;
import org.jmca.mca.progress.ProgressEngine;

/**
 * A job of ranks that are threads of the test, each with its own coll/sm component and module,
 * sharing memory as thread ranks do ({@code threadJob}) or through a file in {@code directory}
 * as processes do; on one host, or on several (rank r on host r % hosts), where the leaders of
 * two-level calls exchange messages through a mailbox. Below coll/sm sits a module
 * that records what it was handed and completes at once.
 */
final class SmTestJob {
    private record Key(int from, int to, int tag) {
    }
    final int size;
    private final ConcurrentMap<String, Object> threadJob;
    private final Path directory;
    private final long slotSize;
    /** Rank r runs on host {@code r % hosts}. */
    private final int hosts;
    /** Messages between ranks (the leaders' level of two-level calls), by sender, receiver and tag. */
    private final Map<Key, Queue<byte[]>> mailbox = new ConcurrentHashMap<>();
    /** What the module below coll/sm was handed, per rank. */
    final List<Queue<CollFunction>> passedDown = new ArrayList<>();

    /** @param directory null: thread ranks; else processes' files go there */
    SmTestJob(int size, Path directory, long slotSize) {
        this(size, directory, slotSize, 1);
    }

    /** A job whose rank r runs on host {@code r % hosts}. */
    SmTestJob(int size, Path directory, long slotSize, int hosts) {
        this.size = size;
        this.hosts = hosts;
        this.directory = directory;
        this.threadJob = directory == null ? new ConcurrentHashMap<>() : null;
        this.slotSize = slotSize;
        for (int r = 0; r < size; r++) {
            passedDown.add(new ConcurrentLinkedQueue<>());
        }
    }

    /** A rank's coll table for a communicator with context {@code context}, as coll selection makes it. */
    CollTable table(int rank, int context, SmCollComponent component) {
        return CollSelection.select(List.of(new CollSelection.Candidate(below(rank), 30),
                new CollSelection.Candidate(component, 40)), new Comm(rank, context)).table();
    }

    SmCollComponent component() {
        ParameterRegistry registry = new ParameterRegistry(List.of(new RawValue("coll_sm_slot_size",
                Long.toString(slotSize), new ValueSource(ValueSource.Kind.COMMAND_LINE, "test"))));
        SmCollComponent component = new SmCollComponent();
        component.registerParameters(registry.prefixed("coll_sm"));
        return component;
    }

    /** Runs {@code body} on every rank at once; rethrows the first failure; fails after 60 s. */
    void run(RankBody body) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(size);
        try {
            List<Future<?>> ranks = new ArrayList<>();
            for (int r = 0; r < size; r++) {
                int rank = r;
                ranks.add(pool.submit(() -> {
                    body.run(rank);
                    return null;
                }));
            }
            for (Future<?> rank : ranks) {
                rank.get(60, TimeUnit.SECONDS);
            }
        } finally {
            pool.shutdownNow();
        }
    }

    interface RankBody {
        void run(int rank) throws Exception;
    }

    /** Tests {@code request} until it completes. */
    static void await(CollRequest request) {
        SPIN.waitUntil(request);
    }

    private CollComponent below(int rank) {
        Queue<CollFunction> record = passedDown.get(rank);
        return new CollComponent() {
            @Override
            public String name() {
                return "below";
            }

            @Override
            public int defaultPriority() {
                return 30;
            }

            @Override
            public CollOffer query(CollCommunicator communicator) {
                return CollOffer.of(new CollModule() {
                    @Override
                    public Set<CollFunction> provides() {
                        return EnumSet.allOf(CollFunction.class);
                    }

                    @Override
                    public CollRequest start(CollFunction function, CollCall call) {
                        record.add(function);
                        return CollRequest.COMPLETE;
                    }
                });
            }
        };
    }

    /** Tags as the runtime draws them: counting down, one per call. */
    final class Comm implements CollCommunicator {
        private final int rank;
        private final int context;

        Comm(int rank, int context) {
            this.rank = rank;
            this.context = context;
        }

        @Override
        public int rank() {
            return rank;
        }

        @Override
        public int size() {
            return size;
        }

        @Override
        public String name() {
            return "test communicator " + context;
        }

        @Override
        public String host(int r) {
            return "host" + (r % hosts);
        }

        @Override
        public int contextId() {
            return context;
        }

        @Override
        public String jobId() {
            return "test";
        }

        @Override
        public boolean drawnAfter(int tag, int earlier) {
            return tag < earlier;
        }

        @Override
        public Path sessionDirectory() {
            return directory;
        }

        @Override
        public ConcurrentMap<String, Object> threadJob() {
            return threadJob;
        }

        @Override
        public ProgressEngine progressEngine() {
            return SPIN;
        }

        @Override
        public PmlRequest isend(MemorySegment data, int dest, int tag) {
            mailbox.computeIfAbsent(new Key(rank, dest, tag), k -> new ConcurrentLinkedQueue<>())
                    .add(data.toArray(ValueLayout.JAVA_BYTE));
            return PmlRequest.allOf(List.of());
        }

        @Override
        public PmlRequest irecv(MemorySegment buffer, int source, int tag) {
            Queue<byte[]> queue = mailbox.computeIfAbsent(new Key(source, rank, tag), k -> new ConcurrentLinkedQueue<>());
            return new PmlRequest() {
                private boolean done;

                @Override
                public boolean isComplete() {
                    byte[] message = done ? null : queue.poll();
                    if (message != null) {
                        MemorySegment.copy(MemorySegment.ofArray(message), 0, buffer, 0, message.length);
                        done = true;
                    }
                    return done;
                }

                @Override
                public PmlStatus status() {
                    return PmlStatus.EMPTY;
                }

                @Override
                public boolean cancel() {
                    return false;
                }
            };
        }
    }

    /** A progress engine with nothing to progress: waiting spins, yielding as ranks outnumber cores here. */
    private static final ProgressEngine SPIN = new ProgressEngine() {
        @Override
        public Registration register(ProgressCallback callback, Priority priority) {
            throw new UnsupportedOperationException();
        }

        @Override
        public int progress() {
            return 0;
        }

        @Override
        public void waitUntil(BooleanSupplier done) {
            while (!done.getAsBoolean()) {
                Thread.yield();
            }
        }

        @Override
        public List<PerformanceVariable> performanceVariables() {
            return List.of();
        }

        @Override
        public String waitStrategy() {
            return "yield";
        }

        @Override
        public void close() {
        }
    };
}
