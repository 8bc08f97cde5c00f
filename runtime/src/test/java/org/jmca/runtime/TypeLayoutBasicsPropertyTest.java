package org.jmca.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * The basic elements of random types (structs of predefined types and pairs, repeated) against
 * a model that lists each basic element's size in message order: MPI_Get_elements of any byte
 * count is the model's count of whole elements when the bytes end at an element's end, else
 * undefined; and the bytes of n basic elements are the model's sum of the first n sizes.
 */
class TypeLayoutBasicsPropertyTest {

    @Property
    void basicElementsAreCountedAsTheModelCountsThem(@ForAll long seed, @ForAll @IntRange(min = 1, max = 4) int count) {
        Random random = new Random(seed);
        TypeLayout.Builder struct = new TypeLayout.Builder();
        List<Integer> model = new ArrayList<>();
        long at = 0;
        for (int field = 1 + random.nextInt(4); field > 0; field--) {
            TypeLayout part;
            List<Integer> sizes;
            if (random.nextInt(4) == 0) {
                // a pair as JMCA lays it out: value, then an int index that runs to the element's end
                int value = List.of(4, 8).get(random.nextInt(2));
                part = TypeLayout.primitive(value + 8).withBasics(value, 8);
                sizes = List.of(value, 8);
            } else {
                int size = List.of(1, 2, 4, 8).get(random.nextInt(4));
                part = TypeLayout.primitive(size);
                sizes = List.of(size);
            }
            int repeat = 1 + random.nextInt(3);
            struct.add(at, repeat, part);
            for (int r = 0; r < repeat; r++) {
                model.addAll(sizes);
            }
            at += repeat * part.extent();
        }
        TypeLayout type = new TypeLayout.Builder().add(0, count, struct.build()).build();
        List<Integer> message = new ArrayList<>();
        for (int e = 0; e < count; e++) {
            message.addAll(model);
        }
        long bytes = 0;
        for (int n = 0; n < message.size(); n++) {
            assertThat(type.basicElements(bytes)).as("%d bytes", bytes).isEqualTo(n);
            assertThat(type.bytesOfBasicElements(n)).isEqualTo(bytes);
            for (int inside = 1; inside < message.get(n); inside++) {
                assertThat(type.basicElements(bytes + inside)).as("%d bytes, inside element %d", bytes + inside, n)
                        .isEqualTo(-1);
            }
            bytes += message.get(n);
        }
        assertThat(type.basicElements(bytes)).isEqualTo(message.size());
        assertThat(bytes).isEqualTo(type.size());
    }
}
