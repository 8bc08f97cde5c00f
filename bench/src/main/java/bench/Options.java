package bench;

import java.nio.ByteBuffer;

/**
 * The OSU micro-benchmarks' options: {@code -m MIN:MAX} message sizes, {@code -i N} iterations,
 * {@code -x N} warm-up iterations, {@code -W N} window (bandwidth), and {@code -b array|direct}
 * for the buffer kind (JMCA's addition: {@code byte[]} or a direct buffer).
 */
record Options(long minSize, long maxSize, int iterations, int warmup, int window, boolean direct) {

    static Options parse(String[] args, long defaultMax, int defaultIterations, int defaultWarmup) {
        long min = 0;
        long max = defaultMax;
        int iterations = defaultIterations;
        int warmup = defaultWarmup;
        int window = 64;
        boolean direct = false;
        for (int i = 0; i < args.length; i++) {
            String value = i + 1 < args.length ? args[i + 1] : null;
            switch (args[i]) {
                case "-m" -> {
                    String[] range = require(value, "-m").split(":");
                    if (range.length == 2) {
                        min = Long.parseLong(range[0]);
                        max = Long.parseLong(range[1]);
                    } else {
                        max = Long.parseLong(range[0]);
                    }
                    i++;
                }
                case "-i" -> {
                    iterations = Integer.parseInt(require(value, "-i"));
                    i++;
                }
                case "-x" -> {
                    warmup = Integer.parseInt(require(value, "-x"));
                    i++;
                }
                case "-W" -> {
                    window = Integer.parseInt(require(value, "-W"));
                    i++;
                }
                case "-b" -> {
                    String kind = require(value, "-b");
                    if (!kind.equals("array") && !kind.equals("direct")) {
                        throw new IllegalArgumentException("-b " + kind + ": the buffer kind is array or direct");
                    }
                    direct = kind.equals("direct");
                    i++;
                }
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + "; options: -m [MIN:]MAX -i ITERATIONS -x WARMUP -W WINDOW -b array|direct");
            }
        }
        if (min < 0 || max < min || iterations < 1 || warmup < 0 || window < 1) {
            throw new IllegalArgumentException("sizes " + min + ":" + max + ", iterations " + iterations + ", warm-up "
                    + warmup + ", window " + window + " are not a valid combination");
        }
        return new Options(min, max, iterations, warmup, window, direct);
    }

    private static String require(String value, String option) {
        if (value == null) {
            throw new IllegalArgumentException(option + " needs a value");
        }
        return value;
    }

    /** A buffer of the chosen kind: a byte[] or a direct ByteBuffer. */
    Object buffer(int size) {
        return direct ? ByteBuffer.allocateDirect(size) : new byte[size];
    }

    /** The sizes OSU walks: min (or 1 after 0), then doubling up to max. */
    long next(long size) {
        return size == 0 ? 1 : size * 2;
    }
}
