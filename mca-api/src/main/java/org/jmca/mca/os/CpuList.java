package org.jmca.mca.os;

import java.util.ArrayList;
import java.util.List;

/** A list of CPU numbers as taskset and Intel MPI's I_MPI_ASYNC_PROGRESS_PIN write it: "0,2,4-7". */
public final class CpuList {
    private CpuList() {
    }

    /**
     * The CPUs of {@code text}, in the order written; empty for an empty text.
     *
     * @throws IllegalArgumentException naming the part that is not a CPU number or range
     */
    public static int[] parse(String text) {
        List<Integer> cpus = new ArrayList<>();
        if (text.isBlank()) {
            return new int[0];
        }
        for (String part : text.split(",", -1)) {
            String[] bounds = part.strip().split("-", -1);
            try {
                int first = Integer.parseInt(bounds[0].strip());
                int last = bounds.length == 2 ? Integer.parseInt(bounds[1].strip()) : first;
                if (bounds.length > 2 || first < 0 || last < first) {
                    throw new NumberFormatException();
                }
                for (int cpu = first; cpu <= last; cpu++) {
                    cpus.add(cpu);
                }
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("\"" + part + "\" is not a CPU number or a range like 4-7");
            }
        }
        return cpus.stream().mapToInt(Integer::intValue).toArray();
    }
}
