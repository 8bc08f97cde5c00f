package org.jmca.coll.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayDeque;
import java.util.Arrays;
import java.util.Deque;
import java.util.function.IntFunction;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;
import org.junit.jupiter.api.Test;

class TreeTest {

    @Property
    void knomialTreesSpanEveryRankOnce(@ForAll @IntRange(min = 1, max = 70) int size,
                                       @ForAll @IntRange(min = 0, max = 69) int rootSeed,
                                       @ForAll @IntRange(min = 2, max = 6) int radix) {
        int root = rootSeed % size;
        assertSpanningTree(size, root, rank -> Tree.knomial(rank, root, size, radix));
    }

    @Property
    void karyTreesSpanEveryRankOnce(@ForAll @IntRange(min = 1, max = 70) int size,
                                    @ForAll @IntRange(min = 0, max = 69) int rootSeed,
                                    @ForAll @IntRange(min = 1, max = 6) int fanout) {
        int root = rootSeed % size;
        assertSpanningTree(size, root, rank -> Tree.kary(rank, root, size, fanout));
    }

    @Test
    void binomialChildrenComeLargestSubtreeFirst() {
        assertThat(Tree.binomial(0, 0, 8).children()).containsExactly(4, 2, 1);
        assertThat(Tree.binomial(4, 0, 8).children()).containsExactly(6, 5);
        assertThat(Tree.binomial(5, 0, 8).parent()).isEqualTo(4);
        assertThat(Tree.binomial(3, 3, 6).children()).containsExactly(1, 5, 4);
    }

    @Test
    void knomialOfRadixThreeHasTwoChildrenPerLevel() {
        assertThat(Tree.knomial(0, 0, 9, 3).children()).containsExactly(3, 6, 1, 2);
        assertThat(Tree.knomial(3, 0, 9, 3).children()).containsExactly(4, 5);
        assertThat(Tree.knomial(7, 0, 9, 3).parent()).isEqualTo(6);
    }

    /** Every rank but the root has the parent that lists it as a child, and all are reached from the root once. */
    private static void assertSpanningTree(int size, int root, IntFunction<Tree> treeOf) {
        Tree[] trees = new Tree[size];
        for (int rank = 0; rank < size; rank++) {
            trees[rank] = treeOf.apply(rank);
            assertThat(trees[rank].isRoot()).as("rank %d is the root", rank).isEqualTo(rank == root);
        }
        boolean[] reached = new boolean[size];
        Deque<Integer> todo = new ArrayDeque<>();
        todo.add(root);
        reached[root] = true;
        while (!todo.isEmpty()) {
            int rank = todo.poll();
            for (int child : trees[rank].children()) {
                assertThat(child).isBetween(0, size - 1);
                assertThat(reached[child]).as("rank %d reached twice", child).isFalse();
                assertThat(trees[child].parent()).as("parent of %d", child).isEqualTo(rank);
                reached[child] = true;
                todo.add(child);
            }
        }
        boolean[] all = new boolean[size];
        Arrays.fill(all, true);
        assertThat(reached).isEqualTo(all);
    }
}
