package org.jmca.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.IntRange;

/**
 * Random monotonic file views against a model that lists, byte by byte, the file offset of each
 * data byte of the view (the filetype's blocks, tile after tile, from the displacement): the
 * pieces of any data range are exactly the model's offsets, merged where adjacent, and the data
 * before a file size is what the model counts.
 */
class ViewLayoutPropertyTest {

    private record View(ViewLayout layout, long[] fileOffsetOfDataByte) {
    }

    private static View randomView(long seed, int tiles) {
        Random random = new Random(seed);
        int blocks = 1 + random.nextInt(4);
        long[] offsets = new long[blocks];
        long[] lengths = new long[blocks];
        long at = random.nextInt(3);
        long size = 0;
        for (int b = 0; b < blocks; b++) {
            offsets[b] = at;
            lengths[b] = 1 + random.nextInt(5);
            size += lengths[b];
            at += lengths[b] + (random.nextBoolean() ? 0 : random.nextInt(4)); // adjacent blocks too
        }
        long extent = at + random.nextInt(3);
        long disp = random.nextInt(10);
        ViewLayout layout = new ViewLayout(disp, offsets, lengths, size, extent);
        List<Long> model = new ArrayList<>();
        for (int t = 0; t < tiles; t++) {
            for (int b = 0; b < blocks; b++) {
                for (long i = 0; i < lengths[b]; i++) {
                    model.add(disp + t * extent + offsets[b] + i);
                }
            }
        }
        return new View(layout, model.stream().mapToLong(Long::longValue).toArray());
    }

    @Property(tries = 300)
    void piecesAreTheModelsBytesMergedWhereAdjacent(@ForAll long seed, @ForAll @IntRange(min = 0, max = 40) int start,
                                                     @ForAll @IntRange(min = 0, max = 40) int bytes) {
        View view = randomView(seed, 90);
        List<Long> fromPieces = new ArrayList<>();
        long previousEnd = Long.MIN_VALUE;
        for (ViewLayout.Piece p : view.layout().pieces(start, bytes)) {
            assertThat(p.length()).isPositive();
            assertThat(p.offset()).as("pieces ascend and are merged").isGreaterThan(previousEnd);
            previousEnd = p.offset() + p.length();
            for (long i = 0; i < p.length(); i++) {
                fromPieces.add(p.offset() + i);
            }
        }
        List<Long> expected = new ArrayList<>();
        for (int i = start; i < start + bytes; i++) {
            expected.add(view.fileOffsetOfDataByte()[i]);
        }
        assertThat(fromPieces).isEqualTo(expected);
    }

    @Property(tries = 300)
    void theDataBeforeAFileSizeIsWhatTheModelCounts(@ForAll long seed,
                                                     @ForAll @IntRange(min = 0, max = 200) int fileSize) {
        View view = randomView(seed, 210); // every tile that starts before byte 200
        long expected = java.util.Arrays.stream(view.fileOffsetOfDataByte()).filter(o -> o < fileSize).count();
        assertThat(view.layout().dataBefore(fileSize)).isEqualTo(expected);
    }
}
