package org.jmca.btl.thread;

import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
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
    /**
     * Exclusivity above sm, as self's (thread never reaches its own rank and self reaches nothing
     * else); latency (ns), bandwidth (Mbit/s), eager limit, fragment size; a message above the
     * eager limit is read by the receiver straight from the sender's memory, heap included.
     */
    static final BtlProperties DEFAULTS = new BtlProperties(65536, 100, 400_000, 4L * 1024, 8L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND, BtlProperties.Flag.GET, BtlProperties.Flag.HEAP));

    private Param<Long> ringSize;
    private BtlBaseParameters common;

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
        common = BtlBaseParameters.register(registrar, DEFAULTS);
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        if (environment.threadJob() == null) {
            return List.of(); // the ranks are processes: nobody to reach in this JVM
        }
        BtlProperties properties = common.properties();
        int ring = SharedRing.capacity(ringSize, 4 * (properties.maxSendSize() + SharedRing.RECORD_HEADER),
                "4 x (" + common.maxSendSize() + " + " + SharedRing.RECORD_HEADER + ")");
        ThreadFabric fabric = (ThreadFabric) environment.threadJob()
                .computeIfAbsent("btl.thread", key -> new ThreadFabric(environment.size(), ring));
        return List.of(new ThreadBtlModule(environment.rank(), fabric, properties));
    }
}
