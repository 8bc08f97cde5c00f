package org.jmca.runtime;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URLEncoder;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jmca.mca.btl.Bridge;
import org.jmca.mca.btl.Peer;

/**
 * MPI's dynamic processes: ports, and the intercommunicator {@code accept} and {@code connect}
 * make between two jobs (what {@code spawn} builds on).
 *
 * <p>A port is a listening socket of the accepting root; its name says where it listens and holds
 * a random token the connecting root must show. Over it the two roots swap their groups: each
 * process's btl/tcp addresses, its next free peer index, the group's largest free context, and
 * a new secret for the tcp connections between the jobs. Each process then adds the other
 * group's processes to its PML as bridged peers ({@link Bridge}): the accepting side first,
 * then it tells the connecting side, whose processes open the connections.
 */
public final class DynamicProcesses {
    /** The longest port name: {@code MPI.MAX_PORT_NAME}. */
    public static final int MAX_PORT_NAME = 1024;
    private static final String SCHEME = "jmca-port:";
    private static final String TCP_ADDRESSES = "tcp.addresses";
    private static final int KEY_BYTES = 32;
    private static final int READY = 1;
    private static final SecureRandom RANDOM = new SecureRandom();

    /**
     * What accept and connect make: the intercommunicator's context and the other group's
     * processes, as this process's PML numbers them (its bridged peers).
     */
    public record Connected(String name, int context, int[] remote) {
    }
    /** This process's open ports, by name. */
    private static final Map<String, ServerSocketChannel> PORTS = new ConcurrentHashMap<>();

    private DynamicProcesses() {
    }

    // ---- ports ----------------------------------------------------------------------------------

    /** A new port: "jmca-port:HOST,HOST...;PORT;TOKEN", listening on every interface. */
    public static String openPort(JobRuntime rt) {
        try {
            ServerSocketChannel server = ServerSocketChannel.open();
            server.bind(new InetSocketAddress(0), 16);
            List<String> hosts = new ArrayList<>();
            for (String address : rt.published.getOrDefault(TCP_ADDRESSES, "").split(",")) {
                if (!address.isEmpty()) {
                    hosts.add(address.substring(0, address.lastIndexOf(':')));
                }
            }
            if (hosts.isEmpty()) {
                hosts.add("127.0.0.1");
            }
            byte[] token = new byte[16];
            RANDOM.nextBytes(token);
            String name = SCHEME + String.join(",", hosts) + ";" + ((InetSocketAddress) server.getLocalAddress()).getPort()
                    + ";" + HexFormat.of().formatHex(token);
            if (name.length() > MAX_PORT_NAME) {
                server.close();
                throw new MpiError(ErrorClass.PORT, "the port name would be longer than MAX_PORT_NAME");
            }
            PORTS.put(name, server);
            return name;
        } catch (IOException e) {
            throw new MpiError(ErrorClass.PORT, "cannot open a port: " + e.getMessage());
        }
    }

    public static void closePort(String port) {
        ServerSocketChannel server = PORTS.remove(port);
        if (server == null) {
            throw new MpiError(ErrorClass.PORT, "no port '" + port + "' is open in this process");
        }
        try {
            server.close();
        } catch (IOException ignored) {
            // closed either way
        }
    }

    /** A port name's parts: hosts, port number, token; MPI_ERR_PORT if it is not one of JMCA's. */
    private record PortName(List<String> hosts, int port, String token) {
        static PortName parse(String name) {
            String[] parts = name == null || !name.startsWith(SCHEME) ? new String[0]
                    : name.substring(SCHEME.length()).split(";");
            try {
                if (parts.length == 3) {
                    return new PortName(List.of(parts[0].split(",")), Integer.parseInt(parts[1]), parts[2]);
                }
            } catch (NumberFormatException e) {
                // reported below
            }
            throw new MpiError(ErrorClass.PORT, "'" + name + "' is not a port name of Intracomm.openPort");
        }
    }

    // ---- accept and connect ---------------------------------------------------------------------

    /** One side's processes as the other needs them: where each listens, and its next free peer index. */
    private record Group(String[] hosts, String[] addresses, int[] bases) {
        void write(DataOutputStream out) throws IOException {
            out.writeInt(hosts.length);
            for (int i = 0; i < hosts.length; i++) {
                out.writeUTF(hosts[i]);
                out.writeUTF(addresses[i]);
                out.writeInt(bases[i]);
            }
        }

        /** The largest group another job may describe: far above any job, far below a heap's worth of arrays. */
        static final int MOST_PROCESSES = 1 << 20;

        static Group read(DataInputStream in) throws IOException {
            int n = in.readInt();
            if (n < 0 || n > MOST_PROCESSES) {
                throw new IOException("the other job described a group of " + n + " processes");
            }
            String[] hosts = new String[n];
            String[] addresses = new String[n];
            int[] bases = new int[n];
            for (int i = 0; i < n; i++) {
                hosts[i] = in.readUTF();
                addresses[i] = in.readUTF();
                bases[i] = in.readInt();
            }
            return new Group(hosts, addresses, bases);
        }
    }

    /** This communicator's group: every process's addresses (from the wire-up) and next free index. */
    private static Group localGroup(JobRuntime rt, Communicator comm) {
        int[] bases = InternalCollectives.allgather(comm, new int[] {rt.pml.peerCount()});
        int n = comm.size();
        String[] hosts = new String[n];
        String[] addresses = new String[n];
        for (int r = 0; r < n; r++) {
            int jobRank = comm.jobRanks[r];
            if (jobRank >= rt.peers.size()) {
                throw new MpiError(ErrorClass.COMM, comm + " has a process of another job: accept and connect take"
                        + " a communicator of this job's processes");
            }
            Peer peer = rt.peers.get(jobRank);
            hosts[r] = peer.hostname();
            addresses[r] = peer.addresses().getOrDefault(TCP_ADDRESSES, "");
            if (addresses[r].isEmpty()) {
                throw new MpiError(ErrorClass.OTHER, "job rank " + jobRank + " has no btl/tcp: processes of"
                        + " different jobs talk over tcp (add tcp to the btl parameter)");
            }
        }
        return new Group(hosts, addresses, bases);
    }

    /** Accepts a connection on {@code port} (open at {@code root}). Collective over {@code comm}. */
    public static Connected accept(JobRuntime rt, Communicator comm, String port, int root, ProcessWatch watch)
            {
        Group mine = localGroup(rt, comm);
        byte[] description = null;
        MpiError failure = null;
        SocketChannel channel = null;
        DataInputStream in = null;
        DataOutputStream out = null;
        try {
            if (comm.rank == root) {
                try {
                    ServerSocketChannel server = PORTS.get(port);
                    if (server == null) {
                        throw new MpiError(ErrorClass.PORT, "no port '" + port + "' is open in this process (the root)");
                    }
                    channel = acceptShowing(server, PortName.parse(port).token(), watch);
                    in = new DataInputStream(channel.socket().getInputStream());
                    out = new DataOutputStream(channel.socket().getOutputStream());
                    Group theirs = Group.read(in);
                    byte[] key = new byte[KEY_BYTES];
                    RANDOM.nextBytes(key);
                    out.write(key);
                    mine.write(out);
                    out.flush();
                    description = describe(key, theirs);
                } catch (IOException e) {
                    failure = new MpiError(ErrorClass.PORT, "accept on " + port + ": " + e.getMessage());
                } catch (MpiError e) {
                    failure = e;
                }
            }
            Other other = learn(comm, root, description, failure, "accept");
            int context = agreeOverSocket(rt, comm, root, in, out);
            Connected inter = bridge(rt, comm, other, context, false, "accept");
            InternalCollectives.barrier(comm); // every process here has the bridge: the other side may connect
            if (out != null) {
                out.writeInt(READY);
                out.flush();
            }
            return inter;
        } catch (IOException e) {
            throw new MpiError(ErrorClass.PORT, "accept on " + port + ": " + e.getMessage());
        } finally {
            closeQuietly(channel);
        }
    }

    /** Connects to the port {@code port} names (its process accepts). Collective over {@code comm}. */
    public static Connected connect(JobRuntime rt, Communicator comm, String port, int root) {
        Group mine = localGroup(rt, comm);
        byte[] description = null;
        MpiError failure = null;
        SocketChannel channel = null;
        DataInputStream in = null;
        DataOutputStream out = null;
        try {
            if (comm.rank == root) {
                try {
                    PortName name = PortName.parse(port);
                    channel = connectTo(name);
                    out = new DataOutputStream(channel.socket().getOutputStream());
                    in = new DataInputStream(channel.socket().getInputStream());
                    out.writeUTF(name.token());
                    mine.write(out);
                    out.flush();
                    byte[] key = in.readNBytes(KEY_BYTES);
                    if (key.length < KEY_BYTES) {
                        throw new java.io.EOFException("the other job's key ended after " + key.length + " bytes");
                    }
                    description = describe(key, Group.read(in));
                } catch (IOException e) {
                    failure = new MpiError(ErrorClass.PORT, "connect to " + port + ": " + e.getMessage());
                } catch (MpiError e) {
                    failure = e;
                }
            }
            Other other = learn(comm, root, description, failure, "connect");
            int context = agreeOverSocket(rt, comm, root, in, out);
            // the accepting side has its bridge once it says ready: only then may this side connect
            int[] ready = {0};
            if (in != null) {
                try {
                    ready[0] = in.readInt() == READY ? 1 : 0;
                } catch (IOException e) {
                    ready[0] = 0;
                }
            }
            if (InternalCollectives.bcast(comm, in != null ? ready : null, root, 1)[0] != 1) {
                throw new MpiError(ErrorClass.PORT, "connect to " + port + ": the accepting side did not get ready");
            }
            return bridge(rt, comm, other, context, true, "connect");
        } finally {
            closeQuietly(channel);
        }
    }

    /** The other group and the bridge's secret, as every process here learns them from the root. */
    private record Other(byte[] key, Group group) {
    }

    /** Every process of {@code comm} learns the other group from the root, or that the root failed: then all fail. */
    private static Other learn(Communicator comm, int root, byte[] description, MpiError failure, String how)
            {
        // what the root sends: 1 then the description, or 0 then the error class of its failure
        byte[] sent = null;
        if (comm.rank == root) {
            java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(1 + (failure == null ? description.length : 4));
            sent = (failure == null ? b.put((byte) 1).put(description) : b.put((byte) 0).putInt(failure.errorClass()))
                    .array();
        }
        byte[] bytes = InternalCollectives.bcastBytes(comm, sent, root);
        try {
            DataInputStream in = new DataInputStream(new java.io.ByteArrayInputStream(bytes));
            if (in.readByte() == 0) {
                int errorClass = in.readInt();
                throw failure != null ? failure : new MpiError(errorClass, how + " failed at the root, rank " + root
                        + " of " + comm + " (it reports why)");
            }
            byte[] key = in.readNBytes(KEY_BYTES);
            return new Other(key, Group.read(in));
        } catch (IOException e) {
            throw new MpiError(ErrorClass.INTERN, "a garbled description of the other group: " + e.getMessage());
        }
    }

    /**
     * The context of the intercommunicator, agreed by both groups ({@link JobRuntime#agree}):
     * each group's largest value, swapped by the roots over the port's connection.
     */
    private static int agreeOverSocket(JobRuntime rt, Communicator comm, int root, DataInputStream in,
                                       DataOutputStream out) {
        return rt.agree(value -> {
            int local = InternalCollectives.allreduceMax(comm, value);
            int[] both = null;
            if (comm.rank == root) {
                try {
                    out.writeInt(local);
                    out.flush();
                    both = new int[] {1, in.readInt()};
                } catch (IOException e) {
                    both = new int[] {0, 0};
                }
            }
            both = InternalCollectives.bcast(comm, both, root, 2);
            if (both[0] != 1) {
                throw new MpiError(ErrorClass.PORT, "the connection between the two jobs' roots broke while they"
                        + " agreed on a context");
            }
            return Math.max(local, both[1]);
        });
    }

    /**
     * Every process adds the other group's processes to its PML (the connecting side opens the
     * connections) and makes the intercommunicator with the agreed context.
     */
    private static Connected bridge(JobRuntime rt, Communicator comm, Other other, int context, boolean initiator,
                                    String how) {
        Group theirs = other.group();
        int first = rt.pml.peerCount();
        int n = theirs.hosts().length;
        List<Peer> peers = new ArrayList<>();
        int[] selfAt = new int[n];
        int[] remote = new int[n];
        for (int j = 0; j < n; j++) {
            remote[j] = first + j;
            peers.add(new Peer(first + j, theirs.hosts()[j], Map.of(TCP_ADDRESSES, theirs.addresses()[j])));
            rt.bridged(first + j, theirs.hosts()[j]);
            selfAt[j] = theirs.bases()[j] + comm.rank;
        }
        rt.pml.addBridgedPeers(new Bridge(other.key(), initiator, peers, selfAt));
        return new Connected(comm + " " + how + "ed", context, remote);
    }

    private static byte[] describe(byte[] key, Group group) throws IOException {
        java.io.ByteArrayOutputStream bytes = new java.io.ByteArrayOutputStream();
        DataOutputStream out = new DataOutputStream(bytes);
        out.write(key);
        group.write(out);
        out.flush();
        return bytes.toByteArray();
    }

    /** Something whose end ends the wait for a connection (a spawned job that died first), or null. */
    public interface ProcessWatch {
        /** Why waiting is pointless now, or null to go on. */
        String gone();
    }

    /** The first connection that shows the port's token (others are closed). */
    private static SocketChannel acceptShowing(ServerSocketChannel server, String token, ProcessWatch watch)
            throws IOException {
        server.configureBlocking(false);
        while (true) {
            SocketChannel channel = server.accept();
            if (channel == null) {
                String gone = watch == null ? null : watch.gone();
                if (gone != null) {
                    throw new MpiError(ErrorClass.SPAWN, gone);
                }
                try {
                    Thread.sleep(2);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new IOException("interrupted while waiting for a connection");
                }
                continue;
            }
            channel.configureBlocking(true);
            try {
                channel.socket().setSoTimeout(30_000); // the socket's own streams keep to it; a channel's would not
                if (token.equals(new DataInputStream(channel.socket().getInputStream()).readUTF())) {
                    channel.socket().setSoTimeout(0);
                    return channel;
                }
            } catch (IOException e) {
                // a connection that is not a JMCA connect (silent, closed, garbled): not ours
            }
            closeQuietly(channel);
        }
    }

    private static SocketChannel connectTo(PortName name) throws IOException {
        IOException last = null;
        for (String host : name.hosts()) {
            try {
                return SocketChannel.open(new InetSocketAddress(host, name.port()));
            } catch (IOException e) {
                last = e;
            }
        }
        throw last != null ? last : new IOException("the port names no host");
    }

    private static void closeQuietly(SocketChannel channel) {
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException ignored) {
                // the intercommunicator is made, or the error reported
            }
        }
    }

    // ---- names --------------------------------------------------------------------------------------

    /** The name service: one file per published name in a directory every job on the host (or shared file system) sees. */
    public static Path names() {
        String dir = System.getenv("JMCA_NAME_SERVICE_DIR");
        return dir != null && !dir.isEmpty() ? Path.of(dir)
                : Path.of(System.getProperty("java.io.tmpdir"), "jmca-names-" + System.getProperty("user.name"));
    }

    private static Path entry(String service) {
        if (service == null || service.isEmpty()) {
            throw new MpiError(ErrorClass.SERVICE, "the service name is " + (service == null ? "null" : "empty"));
        }
        return names().resolve(URLEncoder.encode(service, StandardCharsets.UTF_8));
    }

    public static void publish(String service, String port) {
        Path file = entry(service);
        try {
            Files.createDirectories(file.getParent());
            Path temporary = Files.createTempFile(file.getParent(), ".publish", "");
            Files.writeString(temporary, port);
            try {
                Files.createLink(file, temporary); // fails if the name is published
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (FileAlreadyExistsException e) {
            throw new MpiError(ErrorClass.SERVICE, "the service name '" + service + "' is published already ("
                    + file + ")");
        } catch (IOException e) {
            throw new MpiError(ErrorClass.SERVICE, "cannot publish '" + service + "' in " + names() + ": "
                    + e.getMessage());
        }
    }

    private static final long MOST_PORT_NAME_BYTES = 64 * 1024;

    public static String lookup(String service) {
        try {
            Path entry = entry(service);
            // a port name is a line: an entry that is not a small regular file (a FIFO, a link to
            // /dev/zero, a huge file) is no port name, and must not block or fill the heap
            if (Files.exists(entry) && (!Files.isRegularFile(entry) || Files.size(entry) > MOST_PORT_NAME_BYTES)) {
                throw new MpiError(ErrorClass.NAME, "the entry of '" + service + "' (" + entry + ") is not a port name: "
                        + (Files.isRegularFile(entry) ? Files.size(entry) + " bytes" : "not a regular file"));
            }
            return Files.readString(entry);
        } catch (NoSuchFileException e) {
            throw new MpiError(ErrorClass.NAME, "no service '" + service + "' is published (in " + names() + ")");
        } catch (IOException e) {
            throw new MpiError(ErrorClass.NAME, "cannot look '" + service + "' up: " + e.getMessage());
        }
    }

    public static void unpublish(String service, String port) {
        Path file = entry(service);
        try {
            if (!Files.readString(file).equals(port)) {
                throw new MpiError(ErrorClass.SERVICE, "'" + service + "' is published with another port");
            }
            Files.delete(file);
        } catch (NoSuchFileException e) {
            throw new MpiError(ErrorClass.SERVICE, "no service '" + service + "' is published");
        } catch (IOException e) {
            throw new MpiError(ErrorClass.SERVICE, "cannot unpublish '" + service + "': " + e.getMessage());
        }
    }
}
