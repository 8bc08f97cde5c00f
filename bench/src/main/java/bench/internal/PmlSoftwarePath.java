package bench.internal;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.jmca.btl.self.SelfBtlComponent;
import org.jmca.btl.sm.SmBtlComponent;
import org.jmca.mca.Component;
import org.jmca.mca.ComponentRepository;
import org.jmca.mca.Framework;
import org.jmca.mca.McaFrameworks;
import org.jmca.mca.btl.BtlComponent;
import org.jmca.mca.btl.BtlEnvironment;
import org.jmca.mca.btl.BtlModule;
import org.jmca.mca.btl.Peer;
import org.jmca.mca.param.ParameterRegistry;
import org.jmca.mca.pml.PmlComponent;
import org.jmca.mca.pml.PmlEnvironment;
import org.jmca.mca.pml.PmlModule;
import org.jmca.mca.pml.PmlRequest;
import org.jmca.mca.pml.SendMode;
import org.jmca.mca.progress.ProgressComponent;
import org.jmca.mca.progress.ProgressEngine;
import org.jmca.mca.progress.ProgressEnvironment;
import org.jmca.pml.ob1.Ob1PmlComponent;
import org.jmca.progress.PollingProgressComponent;
import java.util.Map;
import java.util.HashMap;

/**
 * The software cost of one small message through pml/ob1 and btl/sm, with both "ranks" in this
 * thread: no second core, no cache line crossing, no scheduler — only the code. Prints the
 * nanoseconds per hop (send plus receive) for 12 rounds; the smallest is the figure.
 *
 * <pre>java --enable-native-access=ALL-UNNAMED -cp "dist/target/jmca/lib/*:bench/target/jmca-bench.jar" \
 *     bench.internal.PmlSoftwarePath 2000000</pre>
 */
public final class PmlSoftwarePath {
    private record Rank(ProgressEngine engine, List<BtlModule> btls, PmlComponent pml) { }

    private PmlSoftwarePath() {
    }

    public static void main(String[] args) throws IOException {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 2_000_000;
        Path session = Files.createTempDirectory(Path.of("/dev/shm"), "jmca-bench-");
        List<Rank> ranks = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            List<Component> components = List.of(new SelfBtlComponent(), new SmBtlComponent(), new Ob1PmlComponent(),
                    new PollingProgressComponent());
            McaFrameworks frameworks = McaFrameworks.open(ComponentRepository.of(components),
                    ParameterRegistry.withDefaultsOnly(), line -> { });
            ProgressEngine engine = ((ProgressComponent) frameworks.selection(Framework.PROGRESS).requireSingle())
                    .createEngine(new ProgressEnvironment(1, 2));
            BtlEnvironment environment = new BtlEnvironment(r, 2, "localhost", "bench", new byte[32], engine, session);
            List<BtlModule> btls = new ArrayList<>();
            for (Component btl : frameworks.selection(Framework.BTL).selected()) {
                btls.addAll(((BtlComponent) btl).createModules(environment));
            }
            ranks.add(new Rank(engine, btls, (PmlComponent) frameworks.selection(Framework.PML).requireSingle()));
        }
        List<Peer> peers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Map<String, String> published = new HashMap<>();
            ranks.get(r).btls().forEach(btl -> published.putAll(btl.localAddress()));
            peers.add(new Peer(r, "localhost", published));
        }
        PmlModule zero = ranks.get(0).pml().createModule(new PmlEnvironment(0, peers, ranks.get(0).btls(), ranks.get(0).engine()));
        PmlModule one = ranks.get(1).pml().createModule(new PmlEnvironment(1, peers, ranks.get(1).btls(), ranks.get(1).engine()));
        MemorySegment a = MemorySegment.ofArray(new byte[8]);
        MemorySegment b = MemorySegment.ofArray(new byte[8]);
        for (int round = 0; round < 12; round++) {
            long start = System.nanoTime();
            for (int i = 0; i < iterations; i++) {
                PmlRequest atOne = one.irecv(b, 0, 1, 0);
                zero.isend(a, 1, 1, 0, SendMode.STANDARD);
                ranks.get(1).engine().waitUntil(atOne);
                PmlRequest atZero = zero.irecv(a, 1, 1, 0);
                one.isend(b, 0, 1, 0, SendMode.STANDARD);
                ranks.get(0).engine().waitUntil(atZero);
            }
            System.out.printf("pml/ob1 + btl/sm software path: %.1f ns per hop%n",
                    (System.nanoTime() - start) / (2.0 * iterations));
        }
        ranks.forEach(rank -> rank.btls().forEach(BtlModule::finalizeModule));
        Files.deleteIfExists(session);
    }
}
