package org.jmca.btl.thread;

import java.util.List;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/thread}: ranks that are threads of one JVM ({@code jmpirun --ranks-as threads}, the
 * launch API, the JUnit extension). Small messages go through a single-producer ring per pair of
 * ranks in native memory, with no file and no system call; a large one is read by the receiver
 * straight from the sender's array or buffer into its own: one copy. Makes no module when the
 * ranks are processes.
 */
public final class ThreadBtlComponent implements BtlComponent {
    /** Above sm, as self: thread never reaches its own rank and self reaches nothing else. */
    static final int EXCLUSIVITY = 65536;

    private Param<Long> ringSize;
    private Param<Long> eagerLimit;
    private Param<Long> maxSendSize;

    @Override
    public String name() {
        return "thread";
    }

    @Override
    public int defaultPriority() {
        return 0;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        ringSize = registrar.register(ParameterSpec.builder("ring_size", ParamType.SIZE, 64L * 1024)
                .help("Bytes of each ring from one rank to another (a power of two, at least 4 times"
                        + " btl_thread_max_send_size); every pair of ranks has two.")
                .level(5)
                .build());
        eagerLimit = registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, 4L * 1024)
                .help("Largest message (with its 16-byte header) copied through the ring; a larger one is read"
                        + " by the receiver straight from the sender's memory.")
                .level(4)
                .build());
        maxSendSize = registrar.register(ParameterSpec.builder("max_send_size", ParamType.SIZE, 8L * 1024)
                .help("Largest fragment through the ring.")
                .level(4)
                .build());
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (environment.threadJob() == null) {
            return List.of(); // the ranks are processes: nobody to reach in this JVM
        }
        long ring = ringSize.get();
        if (ring > Integer.MAX_VALUE || Long.bitCount(ring) != 1
                || ring < 4 * (maxSendSize.get() + SharedRing.RECORD_HEADER)) {
            throw new McaException("btl_thread_ring_size=" + ring + " (" + ringSize.source() + ") must be a power of"
                    + " two and at least 4 x (btl_thread_max_send_size=" + maxSendSize.get() + " + "
                    + SharedRing.RECORD_HEADER + ")");
        }
        if (maxSendSize.get() < eagerLimit.get()) {
            throw new McaException("btl_thread_max_send_size=" + maxSendSize.get() + " (" + maxSendSize.source()
                    + ") is below btl_thread_eager_limit=" + eagerLimit.get() + " (" + eagerLimit.source() + ")");
        }
        ThreadFabric fabric = (ThreadFabric) environment.threadJob()
                .computeIfAbsent("btl.thread", key -> new ThreadFabric(environment.size(), (int) ring));
        return List.of(new ThreadBtlModule(environment.rank(), fabric, eagerLimit.get(), maxSendSize.get()));
    }
}
