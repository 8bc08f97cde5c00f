package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a job does when a rank dies, and when a stranger knocks on its sockets. */
class FailureDetectionTest {

    @TempDir
    Path home;

    private LiveJob start(int np, List<String> flags, String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Jmca.ROOT.resolve("bin/jmpirun").toString(), "-np",
                String.valueOf(np)));
        command.addAll(flags);
        command.addAll(List.of("-cp", Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.Failing"));
        command.addAll(List.of(args));
        return new LiveJob(new Jmca(home).start(command));
    }

    @Test
    void aRankKilledWithSigkillEndsTheJobWithinSecondsNamingIt() throws Exception {
        Path never = home.resolve("never");
        try (LiveJob job = start(3, List.of(), "wait", never.toString())) {
            List<String> pids = LiveJob.await(job.out, l -> l.matches("rank \\d pid \\d+"), 3, "pids");
            long victim = pids.stream().filter(l -> l.startsWith("rank 1 ")).map(l -> Long.parseLong(l.split(" ")[3]))
                    .findFirst().orElseThrow();
            ProcessHandle.of(victim).orElseThrow().destroyForcibly();
            int status = job.waitFor(30); // a bound against a hang; the cause is what the message says
            assertThat(status).isEqualTo(137);
            assertThat(String.join("\n", job.err))
                    .contains("jmpirun: rank 1 (pid " + victim + ") was killed by signal 9 (SIGKILL); stopping the job");
        }
    }

    @Test
    void aTcpConnectionWithoutTheJobKeyIsRefusedAndTheJobGoesOn() throws Exception {
        Path go = home.resolve("go");
        try (LiveJob job = start(2, List.of("--mca", "btl", "self,tcp", "--mca", "btl_tcp_verbose", "1"),
                "wait", go.toString())) {
            String listening = LiveJob.await(job.err, l -> l.contains("btl/tcp: rank 1 listens on"), 1, "address").getFirst();
            Matcher m = Pattern.compile("listens on (?:[^,]*,)*?127\\.0\\.0\\.1:(\\d+)").matcher(listening);
            assertThat(m.find()).as(listening).isTrue();
            try (Socket stranger = new Socket("127.0.0.1", Integer.parseInt(m.group(1)))) {
                ByteBuffer handshake = ByteBuffer.allocate(44).putInt(0x4a4d4341).putInt(1);
                OutputStream out = stranger.getOutputStream();
                out.write(handshake.array());
                out.flush();
                stranger.setSoTimeout(20_000);
                InputStream in = stranger.getInputStream();
                assertThat(in.read()).as("the rank closes the connection without a word").isEqualTo(-1);
            }
            LiveJob.await(job.err, l -> l.contains("btl/tcp: rank 1 refused a connection from /127.0.0.1:")
                    && l.endsWith("it did not present this job's key"), 1, "refusal");
            Files.createFile(go);
            assertThat(job.waitFor(60)).as("job status; stderr: %s", job.err).isZero();
        }
    }
}
