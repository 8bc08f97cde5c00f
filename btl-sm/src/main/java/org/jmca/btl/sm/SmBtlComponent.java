package org.jmca.btl.sm;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.jmca.btl.base.SharedRing;
import org.jmca.mca.Availability;
import org.jmca.mca.McaException;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.param.Param;
import org.jmca.mca.param.ParamType;
import org.jmca.mca.param.ParameterRegistrar;
import org.jmca.mca.param.ParameterSpec;

/**
 * {@code btl/sm}: processes on one host through rings in shared memory. Available where the
 * segment directory ({@code /dev/shm} unless {@code btl_sm_directory} says otherwise) is writable.
 */
public final class SmBtlComponent implements BtlComponent {
    /** Above every network transport, below self. */
    static final int EXCLUSIVITY = 65535;

    private Param<String> directory;
    private Param<Long> ringSize;
    private Param<Long> eagerLimit;
    private Param<Long> maxSendSize;
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
        eagerLimit = registrar.register(ParameterSpec.builder("eager_limit", ParamType.SIZE, 4L * 1024)
                .help("Largest message (with its 16-byte header) sent without a rendezvous.")
                .level(4)
                .build());
        maxSendSize = registrar.register(ParameterSpec.builder("max_send_size", ParamType.SIZE, 128L * 1024)
                .help("Largest fragment of a rendezvous message.")
                .level(4)
                .build());
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
        long ring = ringSize.get();
        if (ring > Integer.MAX_VALUE || Long.bitCount(ring) != 1 || ring < 4 * (maxSendSize.get() + SharedRing.RECORD_HEADER)) {
            throw new McaException("btl_sm_ring_size=" + ring + " (" + ringSize.source() + ") must be a power of two"
                    + " and at least 4 x (btl_sm_max_send_size=" + maxSendSize.get() + " + " + SharedRing.RECORD_HEADER + ")");
        }
        if (maxSendSize.get() < eagerLimit.get()) {
            throw new McaException("btl_sm_max_send_size=" + maxSendSize.get() + " (" + maxSendSize.source()
                    + ") is below btl_sm_eager_limit=" + eagerLimit.get() + " (" + eagerLimit.source() + ")");
        }
        Path dir = environment.sessionDirectory() != null ? environment.sessionDirectory() : Path.of(directory.get());
        Path file = dir.resolve(environment.jobId() + ".sm." + environment.rank());
        return List.of(new SmBtlModule(environment.rank(), environment.size(), environment.hostname(), file,
                (int) ring, eagerLimit.get(), maxSendSize.get(), EXCLUSIVITY, singleCopyThreshold(environment.size())));
    }
}
