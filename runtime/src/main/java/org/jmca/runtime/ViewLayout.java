package org.jmca.runtime;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Where a file view puts its data: the filetype's blocks tiled from the displacement, one tile
 * per filetype extent. The view's data is the concatenation of those blocks; this maps a range
 * of it to the file's byte ranges, and back.
 *
 * @param disp      the view's displacement in bytes
 * @param offsets   the filetype's blocks: byte offsets within a tile, in order
 * @param lengths   their lengths
 * @param tileData  data bytes per tile (the filetype's size)
 * @param extent    bytes per tile (the filetype's extent)
 */
public record ViewLayout(long disp, long[] offsets, long[] lengths, long tileData, long extent) {

    /** One file piece: {@code length} bytes at {@code offset}. */
    public record Piece(long offset, long length) {
    }

    public static ViewLayout of(long disp, TypeLayout filetype) {
        return new ViewLayout(disp, filetype.offsets(), filetype.lengths(), filetype.size(), filetype.extent());
    }

    /** The file pieces that hold data bytes {@code [start, start + bytes)}, adjacent ones merged. */
    public List<Piece> pieces(long start, long bytes) {
        List<Piece> pieces = new ArrayList<>();
        if (bytes == 0) {
            return pieces;
        }
        long tile = start / tileData;
        long within = start % tileData;
        int block = 0;
        while (within >= lengths[block]) {
            within -= lengths[block];
            block++;
        }
        long left = bytes;
        long runStart = -1;
        long runLength = 0;
        while (left > 0) {
            long offset = disp + tile * extent + offsets[block] + within;
            long n = Math.min(left, lengths[block] - within);
            if (runStart >= 0 && runStart + runLength == offset) {
                runLength += n;
            } else {
                if (runStart >= 0) {
                    pieces.add(new Piece(runStart, runLength));
                }
                runStart = offset;
                runLength = n;
            }
            left -= n;
            within = 0;
            if (++block == offsets.length) {
                block = 0;
                tile++;
            }
        }
        pieces.add(new Piece(runStart, runLength));
        return pieces;
    }

    /** The data bytes of the view that lie before file byte {@code fileSize}: where the view's data ends. */
    public long dataBefore(long fileSize) {
        if (fileSize <= disp || tileData == 0) {
            return 0;
        }
        long tiles = (fileSize - disp) / extent;
        long rest = (fileSize - disp) % extent;
        long data = tiles * tileData;
        for (int b = 0; b < offsets.length; b++) {
            data += Math.max(0, Math.min(lengths[b], rest - offsets[b]));
        }
        return data;
    }

    @Override
    public String toString() {
        return "view at " + disp + " of blocks " + Arrays.toString(offsets) + "/" + Arrays.toString(lengths)
                + " per " + extent + " bytes";
    }
}
