package bench;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The OSU micro-benchmarks' options: {@code -m [MIN:]MAX} message sizes, {@code -i N} iterations,
 * {@code -x N} warm-up iterations, {@code -W N} window (bandwidth), {@code -f} full statistics
 * (collectives: minimum, maximum and iterations next to the average), and JMCA's additions:
 * {@code -b array|direct|array-to-direct} for the buffer kind ({@code byte[]} or a direct
 * buffer; the last: the sender's a {@code byte[]}, the receiver's direct, for ob1's RPUT) and {@code -J}
 * for an extended JIT warm-up before measuring (untimed calls until the JIT is quiet; without it
 * a benchmark warms up exactly as OSU does, with {@code -x} calls, as an application would).
 *
 * <p>As in OSU, messages above {@link #LARGE_MESSAGE_SIZE} bytes run {@link #iterationsLarge} and
 * {@link #warmupLarge} times; {@code -i} and {@code -x} set both the small and the large count.
 */
record Options(long minSize, long maxSize, int iterations, int warmup, int window, boolean direct, boolean full,
        int iterationsLarge, int warmupLarge, boolean jitWarmup, boolean receiverDirect) {

    /** OSU's LARGE_MESSAGE_SIZE: above it, the large iteration counts apply. */
    static final long LARGE_MESSAGE_SIZE = 8192;

    /** What a benchmark runs when an option is not given. */
    record Defaults(long minSize, long maxSize, int iterations, int warmup, int iterationsLarge, int warmupLarge) {
        /** One iteration count and one warm-up count for every size, sizes from 0. */
        static Defaults uniform(long maxSize, int iterations, int warmup) {
            return new Defaults(0, maxSize, iterations, warmup, iterations, warmup);
        }

        /** OSU's collective defaults: sizes 1 B to 1 MiB, 1000 (100 large) iterations after 200 (10 large). */
        static final Defaults COLLECTIVE = new Defaults(1, 1 << 20, 1000, 200, 100, 10);
    }

    /** Options without -f and without separate large-message counts (the point-to-point tests). */
    Options(long minSize, long maxSize, int iterations, int warmup, int window, boolean direct) {
        this(minSize, maxSize, iterations, warmup, window, direct, false, iterations, warmup, false, direct);
    }

    static Options parse(String[] args, long defaultMax, int defaultIterations, int defaultWarmup) {
        return parse(args, Defaults.uniform(defaultMax, defaultIterations, defaultWarmup));
    }

    static Options parse(String[] args, Defaults defaults) {
        long min = defaults.minSize();
        long max = defaults.maxSize();
        int iterations = defaults.iterations();
        int warmup = defaults.warmup();
        int iterationsLarge = defaults.iterationsLarge();
        int warmupLarge = defaults.warmupLarge();
        int window = 64;
        boolean direct = false;
        boolean receiverDirect = false;
        boolean full = false;
        boolean jitWarmup = false;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "-m" -> {
                    String[] range = require(value, "-m").split(":");
                    if (range.length == 2) {
                        min = number(range[0], "-m");
                        max = number(range[1], "-m");
                    } else {
                        max = number(range[0], "-m");
                    }
                    i++;
                }
                case "-i" -> {
                    iterations = (int) number(require(value, "-i"), "-i");
                    iterationsLarge = iterations;
                    i++;
                }
                case "-x" -> {
                    warmup = (int) number(require(value, "-x"), "-x");
                    warmupLarge = warmup;
                    i++;
                }
                case "-W" -> {
                    window = (int) number(require(value, "-W"), "-W");
                    i++;
                }
                case "-b" -> {
                    String kind = require(value, "-b");
                    if (!List.of("array", "direct", "array-to-direct").contains(kind)) {
                        throw new IllegalArgumentException("-b " + kind
                                + ": the buffer kind is array, direct or array-to-direct");
                    }
                    direct = kind.equals("direct");
                    receiverDirect = !kind.equals("array");
                    i++;
                }
                case "-f" -> full = true;
                case "-J" -> jitWarmup = true;
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: -m [MIN:]MAX -i ITERATIONS -x WARMUP -W WINDOW -f -b array|direct|array-to-direct -J");
            }
        }
        if (min < 0 || max < min || max > Integer.MAX_VALUE || iterations < 1 || warmup < 0 || window < 1
                || iterationsLarge < 1 || warmupLarge < 0) {
            throw new IllegalArgumentException("sizes " + min + ":" + max + ", iterations " + iterations + ", warm-up "
                    + warmup + ", window " + window + " are not a valid combination");
        }
        return new Options(min, max, iterations, warmup, window, direct, full, iterationsLarge, warmupLarge,
                jitWarmup, receiverDirect);
    }

    private static String require(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    private static long number(String text, String option) {
        try {
            return Long.parseLong(text);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException(option + " " + text + ": not a number", e);
        }
    }

    /** The timed iterations for a message of {@code size} bytes. */
    int iterations(long size) {
        return size > LARGE_MESSAGE_SIZE ? iterationsLarge : iterations;
    }

    /** The warm-up iterations for a message of {@code size} bytes. */
    int warmup(long size) {
        return size > LARGE_MESSAGE_SIZE ? warmupLarge : warmup;
    }

    /** A buffer of the chosen kind: a byte[] or a direct ByteBuffer. */
    Object buffer(int size) {
        return direct ? ByteBuffer.allocateDirect(size) : new byte[size];
    }

    /**
     * A buffer of the chosen kind for non-blocking calls, which take a {@link java.nio.Buffer}: a
     * direct buffer in native order, or a heap buffer over a byte[].
     */
    ByteBuffer byteBuffer(int size) {
        return direct ? ByteBuffer.allocateDirect(size).order(ByteOrder.nativeOrder()) : ByteBuffer.wrap(new byte[size]);
    }

    /**
     * A buffer of {@code count} floats of the chosen kind, every element 1.0: a float[] or a
     * direct ByteBuffer in native order.
     */
    Object floats(int count) {
        if (direct) {
            ByteBuffer buffer = ByteBuffer.allocateDirect(count * Float.BYTES).order(ByteOrder.nativeOrder());
            for (int i = 0; i < count; i++) {
                buffer.putFloat(i * Float.BYTES, 1.0f);
            }
            return buffer;
        }
        float[] values = new float[count];
        Arrays.fill(values, 1.0f);
        return values;
    }

    /** The sizes OSU walks: min (or 1 after 0), then doubling up to max. */
    long next(long size) {
        return size == 0 ? 1 : size * 2;
    }

    /**
     * The message sizes, in bytes, of a test on elements of {@code elementSize} bytes, as OSU walks
     * them: from min (at least 1) doubling up to max, leaving out the sizes that hold no whole
     * element (a float reduction starts at 4 bytes; a size of 6 reduces 1 float, 12 reduces 3).
     */
    long[] sizes(int elementSize) {
        List<Long> sizes = new ArrayList<>();
        for (long size = Math.max(1, minSize); size <= maxSize; size *= 2) {
            if (size / elementSize > 0) {
                sizes.add(size);
            }
        }
        return sizes.stream().mapToLong(Long::longValue).toArray();
    }
}
