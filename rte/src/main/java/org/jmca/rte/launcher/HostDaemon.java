package org.jmca.rte.launcher;

import java.io.BufferedInputStream;
import java.io.BufferedOutputStream;
import java.io.BufferedReader;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.File;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.jmca.rte.EmbeddedWireUp;
import org.jmca.rte.Reach;

/**
 * jmpirun's daemon on a remote host, started there by the launch agent ({@code ssh HOST ...},
 * {@code ip netns exec HOST ...}): it connects back to jmpirun, starts that host's ranks, forwards
 * their output, reports their exits, and on STOP (or when jmpirun is gone) stops them and removes
 * the host's session directory. Each rank is started under {@code setpriv --pdeathsig KILL} where
 * it exists, so that ranks die with their daemon even if it is killed.
 *
 * <pre>
 * java ... org.jmca.rte.launcher.HostDaemon JMPIRUN-ADDRESSES HOST-INDEX SESSION-DIRECTORY   (the job key on stdin)
 * java ... org.jmca.rte.launcher.HostDaemon --remove SESSION-DIRECTORY
 * </pre>
 */
public final class HostDaemon {
    private static final Path SETPRIV = Path.of("/usr/bin/setpriv");

    private final DataOutputStream out;
    private final SessionDirectory session;
    private final List<Process> ranks = new ArrayList<>();
    private final List<Thread> forwarders = new ArrayList<>();

    private HostDaemon(DataOutputStream out, SessionDirectory session) {
        this.out = out;
        this.session = session;
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 2 && args[0].equals("--remove")) {
            new SessionDirectory(Path.of(args[1])).remove();
            return;
        }
        if (args.length != 3) {
            System.err.println("jmca daemon: usage: HostDaemon JMPIRUN-ADDRESSES HOST-INDEX SESSION-DIRECTORY"
                    + " (the job key on standard input), or --remove DIRECTORY");
            System.exit(2);
        }
        String key = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8)).readLine();
        int host = Integer.parseInt(args[1]);
        SessionDirectory session = SessionDirectory.createAt(Path.of(args[2]));
        Socket socket;
        try {
            socket = Reach.connect(args[0], 5000);
        } catch (IOException e) {
            System.err.println("jmca daemon: cannot reach jmpirun: " + e.getMessage());
            session.remove();
            System.exit(1);
            return;
        }
        int status = 0;
        try (socket) {
            DataOutputStream out = new DataOutputStream(new BufferedOutputStream(socket.getOutputStream()));
            DataInputStream in = new DataInputStream(new BufferedInputStream(socket.getInputStream()));
            out.writeInt(DaemonProtocol.MAGIC);
            out.writeUTF(key == null ? "" : key);
            out.writeInt(host);
            out.writeLong(ProcessHandle.current().pid());
            out.flush();
            new HostDaemon(out, session).serve(in);
        } catch (IOException e) {
            status = 1; // jmpirun is gone: the ranks were stopped in serve
        } finally {
            session.remove();
        }
        System.exit(status);
    }

    /** Runs the host's part of the job until STOP, or until jmpirun's connection ends. */
    private void serve(DataInputStream in) throws IOException {
        try {
            while (true) {
                byte type = in.readByte();
                switch (type) {
                    case DaemonProtocol.LAUNCH -> launch(DaemonProtocol.readLaunch(in));
                    case DaemonProtocol.SIGNAL -> signal(in.readUTF());
                    case DaemonProtocol.STOP -> {
                        stop(in.readInt());
                        send(o -> o.writeByte(DaemonProtocol.BYE));
                        return;
                    }
                    default -> throw new IOException("unknown message type " + type + " from jmpirun");
                }
            }
        } catch (IOException | RuntimeException e) { // a message it cannot act on ends it as a lost jmpirun does
            stop(1000);
            throw e instanceof IOException io ? io : new IOException(e.toString(), e);
        }
    }

    private void launch(List<DaemonProtocol.RankLaunch> launches) throws IOException {
        for (DaemonProtocol.RankLaunch launch : launches) {
            List<String> command = new ArrayList<>();
            if (Files.isExecutable(SETPRIV)) {
                command.addAll(List.of(SETPRIV.toString(), "--pdeathsig", "KILL", "--"));
            }
            command.addAll(RankShare.apply(launch.command(), launch.environment(), launches.size()));
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            Map<String, String> env = builder.environment();
            env.putAll(launch.environment());
            env.put(EmbeddedWireUp.ENV_SESSION_DIR, session.path().toString());
            int rank = launch.rank();
            Process process;
            try {
                process = builder.start();
            } catch (IOException e) {
                send(o -> {
                    o.writeByte(DaemonProtocol.FAILED);
                    o.writeInt(rank);
                    o.writeUTF("cannot start " + command.getFirst() + ": " + e.getMessage());
                });
                continue;
            }
            ranks.add(process);
            send(o -> {
                o.writeByte(DaemonProtocol.STARTED);
                o.writeInt(rank);
                o.writeLong(process.pid());
            });
            forward(rank, 1, process.getInputStream());
            forward(rank, 2, process.getErrorStream());
            process.onExit().thenRun(() -> {
                join(rank);
                send(o -> {
                    o.writeByte(DaemonProtocol.EXITED);
                    o.writeInt(rank);
                    o.writeInt(process.exitValue());
                });
            });
        }
    }

    /** Forwards a rank's stream line by line; a platform thread that ends at the rank's end of file. */
    private void forward(int rank, int stream, InputStream from) {
        Thread thread = Thread.ofPlatform().daemon().name("jmca-daemon-" + rank + "-" + stream).start(() -> {
            try (BufferedReader reader = new BufferedReader(new InputStreamReader(from, StandardCharsets.UTF_8))) {
                for (String line = reader.readLine(); line != null; line = reader.readLine()) {
                    String text = line;
                    send(o -> DaemonProtocol.writeLine(o, rank, stream, text));
                }
            } catch (IOException e) {
                // the rank is gone
            }
        });
        synchronized (forwarders) {
            forwarders.add(thread);
        }
    }

    /** Waits briefly for a rank's output to be forwarded before its exit is reported. */
    private void join(int rank) {
        List<Thread> mine;
        synchronized (forwarders) {
            mine = forwarders.stream().filter(t -> t.getName().startsWith("jmca-daemon-" + rank + "-")).toList();
        }
        for (Thread t : mine) {
            try {
                t.join(2000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private interface Message {
        void write(DataOutputStream out) throws IOException;
    }

    private void send(Message message) {
        synchronized (out) {
            try {
                message.write(out);
                out.flush();
            } catch (IOException e) {
                // jmpirun is gone; serve() notices and stops the ranks
            }
        }
    }

    /** Passes a signal jmpirun got on to every rank still running here. */
    private void signal(String name) {
        ForwardedSignals.send(ranks, name);
    }

    /** SIGTERM to every rank, SIGKILL after {@code graceMillis}. */
    private void stop(int graceMillis) {
        ranks.stream().filter(Process::isAlive).forEach(Process::destroy);
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(graceMillis);
        for (Process process : ranks) {
            try {
                if (!process.waitFor(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS)) {
                    process.destroyForcibly();
                    process.waitFor(2, TimeUnit.SECONDS);
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                process.destroyForcibly();
            }
        }
    }
}
