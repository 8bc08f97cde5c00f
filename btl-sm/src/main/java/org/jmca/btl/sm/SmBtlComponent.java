package org.jmca.btl.sm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.EnumSet;
import java.util.List;
import org.jmca.btl.base.BtlBaseParameters;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.Availability;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.BtlProperties;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/sm}: processes on one host through rings in shared memory. Available where the
 * segment directory ({@code /dev/shm} unless {@code btl_sm_directory} says otherwise) is writable.
 */
public final class SmBtlComponent implements BtlComponent {
    /**
     * Exclusivity above every network transport and below self; latency (ns), bandwidth (Mbit/s),
     * eager limit, fragment size; sending alone until single copy is known to work.
     */
    static final BtlProperties DEFAULTS = new BtlProperties(65535, 200, 80_000, 4L * 1024, 128L * 1024,
            EnumSet.of(BtlProperties.Flag.SEND));

    private Param<String> directory;
    private Param<Long> ringSize;
    private BtlBaseParameters common;
    private Param<Boolean> singleCopy;
    private Param<Long> singleCopyMin;

    @Override
    public String name() {
        return "sm";
    }

    @Override
    public int defaultPriority() {
        return 0;
    }

    @Override
    public void registerParameters(ParameterRegistrar registrar) {
        directory = registrar.register(ParameterSpec.builder("directory", ParamType.STRING, "/dev/shm")
                .help("Where segment files go when no launcher gives a job-private session directory (jmpirun does).")
                .level(5)
                .build());
        ringSize = registrar.register(ParameterSpec.builder("ring_size", ParamType.SIZE, 1024L * 1024)
                .help("Bytes of each ring from one peer to this process (a power of two, at least 4 times"
                        + " btl_sm_max_send_size).")
                .level(5)
                .build());
        common = BtlBaseParameters.register(registrar, DEFAULTS);
        singleCopy = registrar.register(ParameterSpec.builder("single_copy", ParamType.BOOL, true)
                .help("Move large messages between direct buffers with one copy (process_vm_readv) where the kernel"
                        + " allows it (tried at start); false always uses two copies through the rings.")
                .level(3)
                .build());
        singleCopyMin = registrar.register(ParameterSpec.builder("single_copy_min", ParamType.SIZE, 16L * 1024 * 1024)
                .help("Smallest message moved by single copy. Below it two pipelined copies through the rings are"
                        + " faster on the machines measured (see BENCHMARKS.md).")
                .level(4)
                .build());
    }

    /**
     * Single copy when the parameter asks for it and the job has a peer to read from (the module
     * then tries whether the kernel allows it).
     */
    private long singleCopyThreshold(int jobSize) {
        return singleCopy.get() && jobSize > 1 ? singleCopyMin.get() : Long.MAX_VALUE;
    }

    @Override
    public Availability probe() {
        Path dir = Path.of(directory.get());
        return Files.isDirectory(dir) && Files.isWritable(dir) ? Availability.AVAILABLE
                : Availability.unavailable(dir + " is not a writable directory (btl_sm_directory=" + directory.get()
                        + ", " + directory.source() + ")");
    }

    @Override
    public List<BtlModule> createModules(BtlEnvironment environment) {
        BtlProperties properties = common.properties();
        int ring = SharedRing.capacity(ringSize, 4 * (properties.maxSendSize() + SharedRing.RECORD_HEADER),
                "4 x (" + common.maxSendSize() + " + " + SharedRing.RECORD_HEADER + ")");
        Path dir = environment.sessionDirectory() != null ? environment.sessionDirectory() : Path.of(directory.get());
        Path file = dir.resolve(environment.jobId() + ".sm." + environment.rank());
        return List.of(new SmBtlModule(environment.rank(), environment.size(), environment.hostname(), file,
                ring, properties, singleCopyThreshold(environment.size())));
    }
}
