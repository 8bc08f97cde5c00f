package org.jmca.mca.os;

import java.util.Arrays;

/** A list of CPU numbers as taskset and Intel MPI's I_MPI_ASYNC_PROGRESS_PIN write it: "0,2,4-7". */
public final class CpuList {
    /**
     * The most CPUs a list may name, and the bound of a CPU number: far above any machine's
     * (Linux's NR_CPUS is at most 8192), so that a mistyped range such as "0-2147483647" is an
     * error rather than billions of CPUs.
     */
    public static final int MAX_CPUS = 1 << 16;

    private CpuList() {
    }

    /**
     * The CPUs of {@code text}, in the order written; empty for an empty text.
     *
     * @throws IllegalArgumentException naming the part that is not a CPU number or range, or the
     *                                  number or count beyond {@link #MAX_CPUS}
     */
    public static int[] parse(String text) {
        if (text.isBlank()) {
            return new int[0];
        }
        int[] cpus = new int[16];
        int count = 0;
        for (String part : text.split(",", -1)) {
            String[] bounds = part.strip().split("-", -1);
            int first;
            int last;
            try {
                first = Integer.parseInt(bounds[0].strip());
                last = bounds.length == 2 ? Integer.parseInt(bounds[1].strip()) : first;
                if (bounds.length > 2 || first < 0 || last < first) {
                    throw new NumberFormatException();
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException(quoted(part) + " is not a CPU number or a range like 4-7");
            }
            if (last >= MAX_CPUS) {
                throw new IllegalArgumentException(quoted(part) + " is not a CPU number or a range like 4-7: CPU"
                        + " numbers run from 0 to " + (MAX_CPUS - 1));
            }
            if (count + (last - first + 1) > MAX_CPUS) { // both terms are at most MAX_CPUS: no overflow
                throw new IllegalArgumentException(quoted(text) + " names more than " + MAX_CPUS + " CPUs");
            }
            if (count + (last - first + 1) > cpus.length) {
                cpus = Arrays.copyOf(cpus, Math.min(MAX_CPUS, Math.max(2 * cpus.length, count + (last - first + 1))));
            }
            for (int cpu = first; cpu <= last; cpu++) { // last < MAX_CPUS: cpu++ cannot overflow
                cpus[count++] = cpu;
            }
        }
        return Arrays.copyOf(cpus, count);
    }

    /** The text in double quotes, a long one by its start and length. */
    private static String quoted(String text) {
        return "\"" + (text.length() <= 60 ? text : text.substring(0, 60) + "\u2026 (" + text.length()
                + " characters)") + "\"";
    }
}
