package org.jmca.rte.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * jmpirun's side of one remote host: the launch agent's process that runs the host's daemon
 * ({@code AGENT HOST java ... HostDaemon}), the daemon's connection, what its ranks print and how
 * they end. A daemon that goes away without saying goodbye is a failure of its host; its session
 * directory is then removed through the agent.
 *
 * <p>Threads: made and driven by jmpirun's main thread; the connection is read by a thread of its own.
 */
final class RemoteHost {
    /** What happens on the host, told to jmpirun. */
    interface Events {
        void started(int rank, long pid);

        void exited(int rank, int status, long pid);

        /** The host failed (its daemon is gone, or a rank could not start). */
        void failed(String why);
    }

    private final int index;
    private final Host host;
    private final List<String> agent;
    private final List<String> daemonCommand;
    private final Path session;
    private final RankOutput output;
    private final Consumer<String> log;
    private final Map<Integer, Long> pids = new ConcurrentHashMap<>();
    /** The ranks this host was given, and those the daemon said exited: what its messages may name. */
    private final Set<Integer> launched = ConcurrentHashMap.newKeySet();
    private final Set<Integer> exited = ConcurrentHashMap.newKeySet();
    private final CompletableFuture<Void> connected = new CompletableFuture<>();
    private final CompletableFuture<Void> bye = new CompletableFuture<>();
    private Process agentProcess;
    private volatile Socket socket;
    private volatile DataOutputStream out;
    private volatile long daemonPid = -1;
    private volatile boolean stopping;

    /**
     * @param agent         the launch agent's words ({@code ssh}, or {@code ip netns exec})
     * @param daemonCommand the daemon's command without its three arguments
     * @param session       the host's session directory
     */
    RemoteHost(int index, Host host, List<String> agent, List<String> daemonCommand, Path session, RankOutput output,
               Consumer<String> log) {
        this.index = index;
        this.host = host;
        this.agent = List.copyOf(agent);
        this.daemonCommand = List.copyOf(daemonCommand);
        this.session = session;
        this.output = output;
        this.log = log;
    }

    Host host() {
        return host;
    }

    /** Starts the daemon through the agent; it connects back to {@code jmpirunAddress}. */
    void start(String jmpirunAddress, String keyHex) throws IOException {
        List<String> command = new ArrayList<>(agent);
        command.add(host.name());
        command.addAll(daemonCommand);
        command.addAll(List.of(jmpirunAddress, String.valueOf(index), session.toString()));
        try {
            agentProcess = new ProcessBuilder(command).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("cannot run the launch agent '" + String.join(" ", agent) + "' (plm_rsh_agent) for host "
                    + host.name() + ": " + e.getMessage(), e);
        }
        try (OutputStream stdin = agentProcess.getOutputStream()) {
            stdin.write((keyHex + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            // the agent exited before reading the key: awaitConnection says so, with its status
        }
        Thread.ofPlatform().daemon().name("jmpirun-agent-" + host.name()).start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(agentProcess.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    log.accept("jmpirun: host " + host.name() + ": " + line);
                }
            } catch (IOException e) {
                // the agent is gone
            }
        });
    }

    /** The daemon has connected (called by the daemon server once it has checked the key). */
    void attach(Socket socket, long pid, DataInputStream in, Events events) throws IOException {
        this.socket = socket;
        this.daemonPid = pid;
        this.out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
        Thread.ofPlatform().daemon().name("jmpirun-daemon-" + host.name()).start(() -> read(in, events));
        connected.complete(null);
    }

    /** Waits for the daemon to connect; false if it did not within {@code seconds} or its agent ended first. */
    boolean awaitConnection(long seconds) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (connected.isDone()) {
                return true;
            }
            if (!agentProcess.isAlive()) {
                return connected.isDone();
            }
            Thread.sleep(20);
        }
        return connected.isDone();
    }

    /** Why the daemon has not connected, after {@link #awaitConnection} said so. */
    String whyNotConnected(int seconds) {
        String agentLine = String.join(" ", agent) + " " + host.name();
        return agentProcess.isAlive()
                ? "the daemon of host " + host.name() + " did not connect back within " + seconds
                        + " s (--wireup-timeout); the launch agent " + agentLine + " still runs"
                : "the daemon of host " + host.name() + " could not be started: the launch agent " + agentLine
                        + " exited with status " + agentProcess.exitValue() + " (its output is above)";
    }

    void launch(List<DaemonProtocol.RankLaunch> ranks) throws IOException {
        ranks.forEach(r -> launched.add(r.rank()));
        synchronized (this) {
            DaemonProtocol.writeLaunch(out, ranks);
        }
    }

    private void read(DataInputStream in, Events events) {
        try {
            while (true) {
                byte type = in.readByte();
                switch (type) {
                    case DaemonProtocol.STARTED -> {
                        int rank = launchedRank(in.readInt(), "started");
                        long pid = in.readLong();
                        pids.put(rank, pid);
                        events.started(rank, pid);
                    }
                    case DaemonProtocol.OUTPUT -> {
                        int rank = launchedRank(in.readInt(), "wrote");
                        boolean stderr = in.readByte() == 2;
                        output.line(rank, stderr, DaemonProtocol.readLine(in));
                    }
                    case DaemonProtocol.EXITED -> {
                        int rank = launchedRank(in.readInt(), "exited");
                        if (!exited.add(rank)) {
                            throw new IOException("the daemon said twice that rank " + rank + " exited");
                        }
                        events.exited(rank, in.readInt(), pids.getOrDefault(rank, -1L));
                    }
                    case DaemonProtocol.FAILED -> events.failed("rank " + launchedRank(in.readInt(), "failed")
                            + " on host " + host.name() + " did not start: " + in.readUTF());
                    case DaemonProtocol.BYE -> {
                        bye.complete(null);
                        return;
                    }
                    default -> throw new IOException("unknown message type " + type);
                }
            }
        } catch (IOException | RuntimeException e) { // a daemon that says nonsense is as gone as one whose connection ended
            bye.completeExceptionally(e); // nobody will say goodbye: stop() need not wait for it
            if (!stopping) {
                events.failed("the daemon on host " + host.name() + " (pid " + daemonPid + ") is gone, and with it"
                        + " rank(s) " + ranks() + (e instanceof java.io.EOFException ? "" : " (" + e.getMessage() + ")"));
            }
        }
    }

    /** {@code rank} as the daemon named it in a message: one of the ranks this host was given. */
    private int launchedRank(int rank, String what) throws IOException {
        if (!launched.contains(rank)) {
            throw new IOException("the daemon said rank " + rank + " " + what + ", but this host runs rank(s) "
                    + new TreeSet<>(launched));
        }
        return rank;
    }

    private String ranks() {
        return String.join(", ", new TreeMap<>(pids).keySet().stream().map(String::valueOf).toList());
    }

    /** Has the daemon send signal {@code name} to the host's ranks (nothing if it is not connected). */
    void signal(String name) {
        if (out == null || stopping) {
            return;
        }
        try {
            synchronized (this) {
                out.writeByte(DaemonProtocol.SIGNAL);
                out.writeUTF(name);
                out.flush();
            }
        } catch (IOException e) {
            // the daemon is gone: its loss is reported by the reader
        }
    }

    /**
     * Stops the host's ranks (SIGTERM, SIGKILL after the grace) and its daemon; when the daemon does
     * not answer, removes the host's session directory through the agent.
     */
    void stop(int graceMillis) {
        stopping = true;
        boolean tidy = false;
        if (out != null) {
            try {
                synchronized (this) {
                    out.writeByte(DaemonProtocol.STOP);
                    out.writeInt(graceMillis);
                    out.flush();
                }
                bye.get(graceMillis + 3000L, TimeUnit.MILLISECONDS);
                tidy = true;
            } catch (Exception e) {
                // the daemon is gone or does not answer
            }
        }
        if (agentProcess != null) {
            try {
                if (!agentProcess.waitFor(2, TimeUnit.SECONDS)) {
                    agentProcess.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                agentProcess.destroyForcibly();
            }
        }
        if (!tidy && agentProcess != null) {
            removeSession();
        }
        try {
            Socket s = socket;
            if (s != null) {
                s.close();
            }
        } catch (IOException ignored) {
            // closing
        }
    }

    /** {@code AGENT HOST java ... HostDaemon --remove DIR}: what a daemon that died left on its host. */
    private void removeSession() {
        List<String> command = new ArrayList<>(agent);
        command.add(host.name());
        command.addAll(daemonCommand);
        command.addAll(List.of("--remove", session.toString()));
        try {
            Process remove = new ProcessBuilder(command).redirectErrorStream(true).start();
            remove.getOutputStream().close();
            if (!remove.waitFor(20, TimeUnit.SECONDS)) {
                remove.destroyForcibly();
                log.accept("jmpirun: could not remove " + session + " on host " + host.name() + " in 20 s");
            }
        } catch (IOException e) {
            log.accept("jmpirun: could not remove " + session + " on host " + host.name() + ": " + e.getMessage());
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** Reads a daemon's HELLO after the magic: its key, host index and pid. */
    static DaemonHello readHello(DataInputStream in) throws IOException {
        return new DaemonHello(in.readUTF(), in.readInt(), in.readLong());
    }

    record DaemonHello(String key, int host, long pid) {
    }

    static DataInputStream input(Socket socket) throws IOException {
        return new DataInputStream(new BufferedInputStream(socket.getInputStream()));
    }
}
