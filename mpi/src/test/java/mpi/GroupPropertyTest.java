package mpi;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.constraints.IntRange;

/** Group operations against a model of ordered sets of job ranks. */
class GroupPropertyTest {

    @Provide
    Arbitrary<List<Integer>> groups() {
        return Arbitraries.integers().between(0, 11).list().uniqueElements().ofMaxSize(12);
    }

    private static Group group(List<Integer> members, int self) {
        return new Group(members.stream().mapToInt(Integer::intValue).toArray(), self);
    }

    private static List<Integer> members(Group group) {
        List<Integer> list = new ArrayList<>();
        for (int j : group.jobRanks()) {
            list.add(j);
        }
        return list;
    }

    @Property(tries = 300)
    void setOperationsKeepTheFirstGroupsOrder(@ForAll("groups") List<Integer> a, @ForAll("groups") List<Integer> b,
                                             @ForAll @IntRange(min = 0, max = 11) int self) throws MPIException {
        Set<Integer> union = new LinkedHashSet<>(a);
        union.addAll(b);
        List<Integer> intersection = a.stream().filter(b::contains).toList();
        List<Integer> difference = a.stream().filter(j -> !b.contains(j)).toList();
        Group ga = group(a, self);
        Group gb = group(b, self);
        assertThat(members(Group.union(ga, gb))).containsExactlyElementsOf(union);
        assertThat(members(Group.intersection(ga, gb))).containsExactlyElementsOf(intersection);
        assertThat(members(Group.difference(ga, gb))).containsExactlyElementsOf(difference);
        int rank = List.copyOf(union).indexOf(self);
        assertThat(Group.union(ga, gb).getRank()).isEqualTo(rank < 0 ? MPI.UNDEFINED : rank);
        int[] everyRank = java.util.stream.IntStream.range(0, a.size()).toArray();
        int[] translated = Group.translateRanks(ga, everyRank, gb);
        for (int r = 0; r < a.size(); r++) {
            int there = b.indexOf(a.get(r));
            assertThat(translated[r]).isEqualTo(there < 0 ? MPI.UNDEFINED : there);
        }
    }

    @Property(tries = 300)
    void rangesNameTheRanksFromFirstToLastByStride(@ForAll("groups") List<Integer> a,
                                                  @ForAll @IntRange(min = 0, max = 11) int first,
                                                  @ForAll @IntRange(min = 0, max = 11) int last,
                                                  @ForAll @IntRange(min = 1, max = 4) int step) throws MPIException {
        if (first >= a.size() || last >= a.size()) {
            return;
        }
        int stride = first <= last ? step : -step;
        List<Integer> expected = new ArrayList<>();
        for (int r = first; stride > 0 ? r <= last : r >= last; r += stride) {
            expected.add(a.get(r));
        }
        Group ga = group(a, -1);
        assertThat(members(ga.rangeIncl(new int[][] {{first, last, stride}}))).containsExactlyElementsOf(expected);
        assertThat(members(ga.rangeExcl(new int[][] {{first, last, stride}})))
                .containsExactlyElementsOf(a.stream().filter(j -> !expected.contains(j)).toList());
    }
}
