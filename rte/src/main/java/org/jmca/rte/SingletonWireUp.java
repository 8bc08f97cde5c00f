package org.jmca.rte;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/** A process started without a launcher: a job of one. */
public final class SingletonWireUp implements WireUp {
    private final JobInfo job;

    public SingletonWireUp() {
        byte[] key = new byte[32];
        new SecureRandom().nextBytes(key);
        String id = "singleton-" + ProcessHandle.current().pid() + "-" + HexFormat.of().formatHex(key, 0, 4);
        this.job = new JobInfo(0, 1, 1, 0, id, key, Hostname.local(), null);
    }

    @Override
    public JobInfo job() {
        return job;
    }

    @Override
    public List<PeerRecord> exchange(Map<String, String> values) {
        return List.of(new PeerRecord(0, job.hostname(), values));
    }

    @Override
    public void finalized() {
    }

    @Override
    public void abort(int code, String message) {
    }

    @Override
    public void close() {
    }
}
