package org.jmca.rte;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.file.Path;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;

/**
 * The wire-up of a process started by jmpirun: the job's identity comes from the environment
 * jmpirun sets, the exchange goes through jmpirun's server.
 */
public final class EmbeddedWireUp implements WireUp {
    public static final String ENV_SERVER = "JMCA_WIREUP_SERVER";
    public static final String ENV_RANK = "JMCA_RANK";
    public static final String ENV_SIZE = "JMCA_SIZE";
    public static final String ENV_LOCAL_SIZE = "JMCA_LOCAL_SIZE";
    /** The rank's place among the ranks of its host (default: rank modulo the local size). */
    public static final String ENV_LOCAL_RANK = "JMCA_LOCAL_RANK";
    /** The name of the rank's host, as the launcher's host list gives it (default: the kernel's). */
    public static final String ENV_HOSTNAME = "JMCA_HOSTNAME";
    public static final String ENV_JOB_ID = "JMCA_JOB_ID";
    public static final String ENV_JOB_KEY = "JMCA_JOB_KEY";
    public static final String ENV_TIMEOUT = "JMCA_WIREUP_TIMEOUT";
    public static final String ENV_SESSION_DIR = "JMCA_SESSION_DIR";

    private final JobInfo job;
    private final Socket socket;
    private final DataInputStream in;
    private final DataOutputStream out;

    private EmbeddedWireUp(JobInfo job, Socket socket) throws IOException {
        this.job = job;
        this.socket = socket;
        this.in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
    }

    /**
     * Connects to the server named by the environment jmpirun set.
     *
     * @throws WireUpException naming the variable or the server that is wrong
     */
    public static EmbeddedWireUp fromEnvironment(Map<String, String> env) {
        String server = required(env, ENV_SERVER);
        int rank = integer(env, ENV_RANK);
        int localSize = integer(env, ENV_LOCAL_SIZE);
        String hostname = env.get(ENV_HOSTNAME);
        JobInfo job = new JobInfo(rank, integer(env, ENV_SIZE), localSize,
                env.containsKey(ENV_LOCAL_RANK) ? integer(env, ENV_LOCAL_RANK) : rank % localSize,
                required(env, ENV_JOB_ID), HexFormat.of().parseHex(required(env, ENV_JOB_KEY)),
                hostname == null || hostname.isBlank() ? Hostname.local() : hostname,
                env.containsKey(ENV_SESSION_DIR) ? Path.of(env.get(ENV_SESSION_DIR)) : null);
        int timeoutSeconds = integer(env, ENV_TIMEOUT);
        try {
            Socket socket = Reach.connect(server, 5000);
            socket.setSoTimeout(timeoutSeconds * 1000);
            EmbeddedWireUp wireUp = new EmbeddedWireUp(job, socket);
            wireUp.out.writeInt(WireUpProtocol.MAGIC);
            wireUp.out.writeUTF(env.get(ENV_JOB_KEY));
            wireUp.out.writeInt(job.rank());
            wireUp.out.writeLong(ProcessHandle.current().pid());
            wireUp.out.flush();
            return wireUp;
        } catch (IOException | RuntimeException e) {
            throw new WireUpException("rank " + job.rank() + " cannot reach jmpirun at " + server + " (" + ENV_SERVER
                    + "): " + e.getMessage(), e);
        }
    }

    private static String required(Map<String, String> env, String name) {
        String value = env.get(name);
        if (value == null || value.isBlank()) {
            throw new WireUpException("the environment variable " + name + " is missing: was this process started"
                    + " by jmpirun?");
        }
        return value;
    }

    private static int integer(Map<String, String> env, String name) {
        String value = required(env, name);
        try {
            return Integer.parseInt(value);
        } catch (NumberFormatException e) {
            throw new WireUpException(name + "=" + value + " is not an integer");
        }
    }

    @Override
    public JobInfo job() {
        return job;
    }

    @Override
    public synchronized List<PeerRecord> exchange(Map<String, String> values) {
        try {
            out.writeByte(WireUpProtocol.EXCHANGE);
            out.writeUTF(job.hostname());
            WireUpProtocol.writeMap(out, values);
            out.flush();
            return WireUpProtocol.readRecords(in, job.size());
        } catch (SocketTimeoutException e) {
            throw new WireUpException("rank " + job.rank() + " waited " + e.getMessage()
                    + " for the other ranks to reach the wire-up exchange", e);
        } catch (IOException e) {
            throw new WireUpException("rank " + job.rank() + " lost jmpirun during the wire-up exchange: "
                    + e.getMessage(), e);
        }
    }

    @Override
    public synchronized void finalized() {
        send(WireUpProtocol.FINALIZED, null, 0);
    }

    @Override
    public synchronized void abort(int code, String message) {
        send(WireUpProtocol.ABORT, message, code);
    }

    private void send(byte type, String message, int code) {
        try {
            out.writeByte(type);
            if (type == WireUpProtocol.ABORT) {
                out.writeInt(code);
                out.writeUTF(message);
            }
            out.flush();
        } catch (IOException e) {
            // jmpirun is gone; there is nobody left to tell.
        }
    }

    @Override
    public void close() {
        try {
            socket.close();
        } catch (IOException ignored) {
            // Closing at exit.
        }
    }
}
