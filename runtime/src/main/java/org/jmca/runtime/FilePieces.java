package org.jmca.runtime;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.List;

/** Positional reads and writes of a view's pieces, their bytes one after another in a buffer. */
public final class FilePieces {
    private FilePieces() {
    }

    /** Writes each piece's bytes from {@code data} (from its start) at the piece's offset. */
    public static void write(FileChannel channel, List<ViewLayout.Piece> pieces, ByteBuffer data) throws IOException {
        int at = 0;
        for (ViewLayout.Piece p : pieces) {
            ByteBuffer piece = data.limit(at + (int) p.length()).position(at);
            long position = p.offset();
            while (piece.hasRemaining()) {
                position += channel.write(piece, position);
            }
            at += (int) p.length();
        }
    }

    /** Reads the pieces into {@code data} (from its start) up to the end of the file; returns the bytes read. */
    public static int read(FileChannel channel, List<ViewLayout.Piece> pieces, ByteBuffer data) throws IOException {
        int read = 0;
        for (ViewLayout.Piece p : pieces) {
            ByteBuffer piece = data.limit(read + (int) p.length()).position(read);
            while (piece.hasRemaining() && channel.read(piece, p.offset() + piece.position() - read) >= 0) {
                // until the piece is read or the file ends
            }
            int got = piece.position() - read;
            read += got;
            if (got < p.length()) {
                break; // the end of the file
            }
        }
        return read;
    }
}
