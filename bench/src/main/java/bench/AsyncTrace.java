package bench;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;

/**
 * Lines up, iteration by iteration, what {@code bench.Overlap} did at the receiver with what the
 * runtime did for it: when the sender announced the rendezvous, when the receiver's helper woke,
 * when the message was read and by which thread, and when the application's wait began. Reads the
 * JDK Flight Recorder files of both ranks (their {@code System.nanoTime()} stamps share the host's
 * monotonic clock) and prints, per size, where the time from the post went (to the sender's
 * announcement and ring, to the helper's wake-up, to the read and through it, against the work
 * between post and wait), and why the iterations that were not hidden were not.
 *
 * <pre>bench/async-trace [OUT]   # runs bench.Overlap under a recording and this on its files</pre>
 */
public final class AsyncTrace {
    private record Iteration(int bytes, boolean worked, long post, long waitBegan, long done) {
    }

    private record Announced(long bytes, boolean rang, long nanos) {
    }

    private record Served(long woke, long owned, long done, boolean slept) {
    }

    private record Read(long bytes, boolean onHelper, long start, long end) {
    }

    /** What became of one iteration's rendezvous. */
    enum Outcome {
        HIDDEN("read by the helper before the wait began"),
        HELPER_LATE("read by the helper, not over when the wait began"),
        NOT_RUNG("read in the wait: the sender did not ring (bell not armed)"),
        WOKE_AFTER_WAIT("read in the wait: the helper woke after the wait began"),
        HELPER_TURNED_AWAY("read in the wait: the helper woke in time but did not read it"),
        UNMATCHED("no announcement or read found in the iteration");

        final String why;

        Outcome(String why) {
            this.why = why;
        }
    }

    private AsyncTrace() {
    }

    public static void main(String[] args) throws IOException {
        if (args.length == 0) {
            System.err.println("usage: bench.AsyncTrace RECORDING.jfr... (the sender's and the receiver's)");
            System.exit(2);
        }
        List<Iteration> iterations = new ArrayList<>();
        List<Announced> announced = new ArrayList<>();
        List<Served> served = new ArrayList<>();
        List<Read> reads = new ArrayList<>();
        for (String file : args) {
            for (RecordedEvent e : RecordingFile.readAllEvents(Path.of(file))) {
                switch (e.getEventType().getName()) {
                    case "bench.OverlapIteration" -> {
                        if (e.getBoolean("receiver")) {
                            iterations.add(new Iteration(e.getInt("bytes"), e.getBoolean("worked"),
                                    e.getLong("postNanos"), e.getLong("waitNanos"), e.getLong("doneNanos")));
                        }
                    }
                    case "jmca.RendezvousAnnounced" -> announced.add(new Announced(e.getLong("bytes"),
                            e.getBoolean("rang"), e.getLong("nanos")));
                    case "jmca.HelperServed" -> served.add(new Served(e.getLong("wokeNanos"), e.getLong("ownedNanos"),
                            e.getLong("doneNanos"), e.getBoolean("slept")));
                    case "jmca.RendezvousRead" -> reads.add(new Read(e.getLong("bytes"), e.getBoolean("onHelper"),
                            e.getLong("startNanos"), e.getLong("endNanos")));
                    default -> { }
                }
            }
        }
        announced.sort(Comparator.comparingLong(Announced::nanos));
        served.sort(Comparator.comparingLong(Served::woke));
        reads.sort(Comparator.comparingLong(Read::start));
        Map<Integer, List<Row>> bySize = new TreeMap<>();
        Map<Integer, List<Row>> aloneBySize = new TreeMap<>();
        for (Iteration it : iterations) {
            (it.worked() ? bySize : aloneBySize).computeIfAbsent(it.bytes(), k -> new ArrayList<>())
                    .add(row(it, announced, served, reads));
        }
        System.out.println("# bench.Overlap at the receiver; times in us, median (90th percentile). Post-work-wait"
                + " iterations; 'alone': the iterations without work at the receiver, where it reads itself");
        System.out.printf("# %8s %6s %8s %16s %16s %16s %16s %16s %16s %16s %16s %s%n", "size", "iters", "hidden",
                "post to ring", "ring to wake", "wake to read", "helper's read", "post to wait", "time in wait",
                "alone: to ring", "alone: read", "not hidden, by cause");
        for (Map.Entry<Integer, List<Row>> entry : bySize.entrySet()) {
            List<Row> rows = entry.getValue();
            List<Row> alone = aloneBySize.getOrDefault(entry.getKey(), List.of());
            int[] outcomes = new int[Outcome.values().length];
            rows.forEach(r -> outcomes[r.outcome().ordinal()]++);
            StringBuilder causes = new StringBuilder();
            for (Outcome o : Outcome.values()) {
                if (o != Outcome.HIDDEN && outcomes[o.ordinal()] > 0) {
                    causes.append(causes.isEmpty() ? "" : "; ").append(o.name().toLowerCase()).append(' ')
                            .append(outcomes[o.ordinal()]);
                }
            }
            System.out.printf("  %8d %6d %7.0f%% %16s %16s %16s %16s %16s %16s %16s %16s %s%n", entry.getKey(),
                    rows.size(), 100.0 * outcomes[Outcome.HIDDEN.ordinal()] / rows.size(), spread(rows, Row::postToRing),
                    spread(rows, Row::ringToWake), spread(rows, Row::wakeToRead), spread(rows, Row::read),
                    spread(rows, Row::postToWait), spread(rows, Row::inWait), spread(alone, Row::postToRing),
                    spread(alone, Row::read), causes.isEmpty() ? "-" : causes);
        }
        System.out.println("# causes:");
        for (Outcome o : Outcome.values()) {
            System.out.println("#   " + o.name().toLowerCase() + ": " + o.why);
        }
        long slept = served.stream().filter(Served::slept).count();
        System.out.println("# helper wake-ups: " + served.size() + ", " + slept + " from sleep in the kernel, "
                + (served.size() - slept) + " seen while polling the bell");
    }

    /** One iteration's intervals in nanoseconds (-1 where the event is missing) and its outcome. */
    private record Row(long postToRing, long ringToWake, long wakeToRead, long read, long postToWait, long inWait,
                       Outcome outcome) {
    }

    private static Row row(Iteration it, List<Announced> announced, List<Served> served, List<Read> reads) {
        Announced a = first(announced, Announced::nanos, it.post(), it.done(), x -> x.bytes() == it.bytes());
        Read r = first(reads, Read::start, it.post(), it.done(), x -> x.bytes() == it.bytes());
        long inWait = it.done() - it.waitBegan();
        long postToWait = it.waitBegan() - it.post();
        if (a == null || r == null) {
            return new Row(-1, -1, -1, -1, postToWait, inWait, Outcome.UNMATCHED);
        }
        Served s = first(served, Served::woke, a.nanos(), it.done(), x -> true);
        long ringToWake = s == null ? -1 : s.woke() - a.nanos();
        long wakeToRead = s == null || !r.onHelper() ? -1 : r.start() - s.woke();
        Outcome outcome;
        if (r.onHelper()) {
            outcome = r.end() <= it.waitBegan() ? Outcome.HIDDEN : Outcome.HELPER_LATE;
        } else if (!a.rang() && (s == null || s.woke() > it.waitBegan())) {
            outcome = Outcome.NOT_RUNG;
        } else if (s == null || s.woke() >= it.waitBegan()) {
            outcome = Outcome.WOKE_AFTER_WAIT;
        } else {
            outcome = Outcome.HELPER_TURNED_AWAY;
        }
        return new Row(a.nanos() - it.post(), ringToWake, wakeToRead, r.end() - r.start(), postToWait, inWait,
                outcome);
    }

    /** The first element whose stamp is in [from, to] and that {@code test} accepts, or null. */
    private static <T> T first(List<T> sorted, java.util.function.ToLongFunction<T> stamp, long from, long to,
                               java.util.function.Predicate<T> test) {
        int lo = 0;
        int hi = sorted.size();
        while (lo < hi) {
            int mid = (lo + hi) >>> 1;
            if (stamp.applyAsLong(sorted.get(mid)) < from) {
                lo = mid + 1;
            } else {
                hi = mid;
            }
        }
        for (int i = lo; i < sorted.size() && stamp.applyAsLong(sorted.get(i)) <= to; i++) {
            if (test.test(sorted.get(i))) {
                return sorted.get(i);
            }
        }
        return null;
    }

    /** "median (p90)" in microseconds of the values that were measured, or "-". */
    private static String spread(List<Row> rows, java.util.function.ToLongFunction<Row> value) {
        long[] v = rows.stream().mapToLong(value).filter(x -> x >= 0).sorted().toArray();
        if (v.length == 0) {
            return "-";
        }
        return String.format("%.1f (%.1f)", v[v.length / 2] / 1e3, v[Math.min(v.length - 1, v.length * 9 / 10)] / 1e3);
    }
}
