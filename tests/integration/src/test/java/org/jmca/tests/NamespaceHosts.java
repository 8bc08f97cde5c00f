package org.jmca.tests;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Assumptions;

/**
 * Hosts for tests on one machine: network namespaces, each joined by a veth pair to a bridge in
 * this namespace, each with an address of its own on 10.77.N.0/24 (the bridge is .254). A job
 * started here with {@code --mca plm_rsh_agent "ip netns exec"} and {@code --host NAME:2,...}
 * runs each host's ranks in its namespace, so their traffic between hosts crosses the veths.
 * Everything is removed on {@link #close()}, and by a shutdown hook if the test JVM ends first.
 */
final class NamespaceHosts implements AutoCloseable {
    private static final String PREFIX = "jmcat";
    private static final AtomicInteger MADE = new AtomicInteger();

    private final String tag;
    private final String bridge;
    private final List<String> names = new ArrayList<>();
    private final Thread cleanup = new Thread(this::remove, "namespace-hosts-cleanup");

    /**
     * {@code count} hosts for {@code test}, or the test skipped, saying why on stderr (not root,
     * no network namespaces here): never silently.
     */
    static NamespaceHosts orSkip(String test, int count) throws IOException {
        String why = unavailable();
        if (why != null) {
            System.err.println(test + " is skipped: " + why);
        }
        Assumptions.assumeTrue(why == null, why);
        return new NamespaceHosts(count);
    }

    /** Why namespace hosts cannot be made here, or null if they can (tried: a namespace made and removed). */
    static String unavailable() {
        if (!"root".equals(System.getProperty("user.name"))) {
            return "network namespaces need root, and the tests run as " + System.getProperty("user.name");
        }
        try {
            String probe = PREFIX + "probe" + ProcessHandle.current().pid();
            run("ip", "netns", "add", probe);
            run("ip", "netns", "del", probe);
            return null;
        } catch (IOException e) {
            return "this machine does not allow network namespaces: " + e.getMessage();
        }
    }

    /** {@code count} hosts named {@code jmcatNhI}, I from 1. */
    NamespaceHosts(int count) throws IOException {
        // A subnet and names of their own for this JVM's n-th set (names stay under 16 characters)
        int n = (int) ((ProcessHandle.current().pid() * 7 + MADE.getAndIncrement() * 101) % 230) + 20;
        this.tag = PREFIX + n;
        this.bridge = tag + "br";
        removeLeftovers();
        Runtime.getRuntime().addShutdownHook(cleanup);
        run("ip", "link", "add", bridge, "type", "bridge");
        run("ip", "addr", "add", "10.77." + n + ".254/24", "dev", bridge);
        run("ip", "link", "set", bridge, "up");
        for (int i = 1; i <= count; i++) {
            String ns = tag + "h" + i;
            String outside = tag + "v" + i;
            String inside = tag + "p" + i;
            run("ip", "netns", "add", ns);
            names.add(ns);
            run("ip", "link", "add", outside, "type", "veth", "peer", "name", inside);
            run("ip", "link", "set", outside, "master", bridge, "up");
            run("ip", "link", "set", inside, "netns", ns);
            run("ip", "netns", "exec", ns, "ip", "link", "set", inside, "name", "eth0");
            run("ip", "netns", "exec", ns, "ip", "addr", "add", "10.77." + n + "." + i + "/24", "dev", "eth0");
            run("ip", "netns", "exec", ns, "ip", "link", "set", "eth0", "up");
            run("ip", "netns", "exec", ns, "ip", "link", "set", "lo", "up");
        }
    }

    List<String> names() {
        return List.copyOf(names);
    }

    /** {@code --host h1:slots,h2:slots,...}'s value. */
    String hostList(int slots) {
        return String.join(",", names.stream().map(h -> h + ":" + slots).toList());
    }

    /** The namespaces of this machine that tests made and did not remove. */
    static List<String> leftovers() throws IOException {
        return run("ip", "netns", "list").lines().map(l -> l.split(" ")[0]).filter(l -> l.startsWith(PREFIX)).toList();
    }

    private void removeLeftovers() throws IOException {
        for (String ns : leftovers()) {
            if (ns.startsWith(tag + "h")) {
                run("ip", "netns", "del", ns);
            }
        }
        runQuietly("ip", "link", "del", bridge);
    }

    private void remove() {
        for (String ns : names) {
            runQuietly("ip", "netns", "del", ns);
        }
        runQuietly("ip", "link", "del", bridge);
    }

    @Override
    public void close() {
        remove();
        names.clear();
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // shutting down: the hook runs anyway
        }
    }

    static String run(String... command) throws IOException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        try {
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(30, TimeUnit.SECONDS) || process.exitValue() != 0) {
                throw new IOException(String.join(" ", command) + " failed: " + output.strip());
            }
            return output;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    private static void runQuietly(String... command) {
        try {
            run(command);
        } catch (IOException e) {
            // already gone
        }
    }
}
