package org.jmca.tune;

import java.util.ArrayList;
import java.util.List;
import org.jmca.mca.param.ParamType;

/** Message sizes as users write them (8, 4k, 1m) and the default range, powers of two. */
final class Sizes {
    private Sizes() {
    }

    /** 4096 as "4k", 1048576 as "1m", 12 as "12". */
    static String format(long bytes) {
        return ParamType.SIZE.format(bytes);
    }

    /** "8:1m" (powers of two between) or "8,64,4k" (those); sizes as ParamType.SIZE reads them. */
    static List<Long> parse(String text) {
        List<Long> sizes = new ArrayList<>();
        if (text.contains(":")) {
            String[] bounds = text.split(":", 2);
            long low = ParamType.SIZE.parse(bounds[0]);
            long high = ParamType.SIZE.parse(bounds[1]);
            if (low < 1 || high < low) {
                throw new IllegalArgumentException("'" + text + "' is not a range of sizes LOW:HIGH with 1 <= LOW <= HIGH");
            }
            for (long size = low; size <= high; size *= 2) {
                sizes.add(size);
            }
        } else {
            for (String item : text.split(",")) {
                sizes.add(ParamType.SIZE.parse(item));
            }
            if (sizes.stream().anyMatch(s -> s < 0) || !sizes.equals(sizes.stream().sorted().distinct().toList())) {
                throw new IllegalArgumentException("'" + text + "': sizes must be ascending, each once");
            }
        }
        return List.copyOf(sizes);
    }
}
