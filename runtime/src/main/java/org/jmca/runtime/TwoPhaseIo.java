package org.jmca.runtime;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Function;
import org.jmca.mca.coll.CollCall;
import org.jmca.mca.coll.CollFunction;
import org.jmca.mca.coll.Reduction;

/**
 * Collective reads and writes in two phases, as ROMIO does them: the file range the whole group
 * touches is cut into one contiguous domain per aggregator; in the first phase every process
 * sends each aggregator the pieces of its request that fall in its domain (and, writing, their
 * bytes), in the second each aggregator reads or writes its domain in large contiguous runs and
 * (reading) sends every process its bytes back. Interleaved views, whose pieces are small and
 * many per process, become a few large accesses per aggregator.
 *
 * <p>Views are monotonic (MPI requires it), so a process's pieces come in file order and its
 * pieces for one aggregator are one stretch of its data.
 */
public final class TwoPhaseIo {
    /** Below this mean piece size, interleaved requests go through aggregators ("automatic"). */
    static final long SMALL_PIECE = 64 << 10;

    /** ROMIO's romio_cb_write / romio_cb_read: whether a collective access goes through aggregators. */
    public enum Buffering {
        /** Always. */
        ENABLE,
        /** Never: each process accesses its own pieces. */
        DISABLE,
        /** When the processes' requests interleave and their pieces are small (below {@link #SMALL_PIECE} on average). */
        AUTOMATIC
    }

    /** What the exchange's collectives are called in an error. */
    private static final String OPERATION = "a collective MPI.File access";
    private static final Reduction MAX_INT = Reductions.predefined(PredefinedOp.MAX, Type.INT);

    private final Communicator group;
    private final FileChannel channel;
    private final int aggregators;
    private final Buffering forWrites;
    private final Buffering forReads;

    /** @param aggregators how many processes do the file accesses (the first ones), at most the group's size */
    public TwoPhaseIo(Communicator group, FileChannel channel, int aggregators, Buffering forWrites, Buffering forReads) {
        this.group = group;
        this.channel = channel;
        this.aggregators = aggregators;
        this.forWrites = forWrites;
        this.forReads = forReads;
    }

    /** Runs one collective of the exchange over the group, as a blocking call of the user's would. */
    private void collective(String operation, CollFunction function, Function<Collectives, CollCall> build) {
        Collectives c = new Collectives(group, operation);
        c.enter();
        try {
            c.run(function, build.apply(c));
        } finally {
            c.exit();
        }
    }

    /** Every process's request in brief: {first byte, end, pieces, bytes} per process. */
    private long[] requests(List<ViewLayout.Piece> mine) {
        long bytes = 0;
        for (ViewLayout.Piece p : mine) {
            bytes += p.length();
        }
        long[] request = mine.isEmpty() ? new long[] {Long.MAX_VALUE, Long.MIN_VALUE, 0, 0}
                : new long[] {mine.getFirst().offset(), mine.getLast().offset() + mine.getLast().length(),
                        mine.size(), bytes};
        long[] all = new long[4 * group.size()];
        collective(OPERATION, CollFunction.ALLGATHER, c -> c.allGather(request, 4, Type.LONG, all, 4, Type.LONG));
        return all;
    }

    /**
     * Whether the access goes through aggregators; every process decides alike from {@link
     * #requests}. Never when a domain would not fit one buffer (2 GiB).
     */
    private boolean twoPhase(Buffering buffering, long[] requests) {
        int n = requests.length / 4;
        long lo = Long.MAX_VALUE;
        long hi = Long.MIN_VALUE;
        for (int r = 0; r < n; r++) {
            lo = Math.min(lo, requests[4 * r]);
            hi = Math.max(hi, requests[4 * r + 1]);
        }
        if (hi > lo && (hi - lo) / Math.min(aggregators, n) >= Integer.MAX_VALUE - 16) {
            return false;
        }
        if (buffering != Buffering.AUTOMATIC) {
            return buffering == Buffering.ENABLE;
        }
        long pieces = 0;
        long bytes = 0;
        boolean interleaved = false;
        for (int r = 0; r < n; r++) {
            pieces += requests[4 * r + 2];
            bytes += requests[4 * r + 3];
            for (int q = 0; q < r; q++) {
                interleaved |= requests[4 * r] < requests[4 * q + 1] && requests[4 * q] < requests[4 * r + 1];
            }
        }
        return interleaved && pieces > 0 && bytes / pieces < SMALL_PIECE;
    }

    /** The requests of every process, cut by domain and delivered to the aggregators. */
    private final class Exchange {
        final int n;
        /** Per aggregator: this process's pieces in its domain, as offset/length pairs, and their bytes. */
        final int[] piecesTo;
        final int[] bytesTo;
        /** Per process: the pieces (pairs) it sent this one as an aggregator. */
        final int[] piecesFrom;
        final long[] received;
        final int[] pieceDispls;

        Exchange(List<ViewLayout.Piece> mine, long[] requests) {
            n = group.size();
            long lo = Long.MAX_VALUE;
            long hi = Long.MIN_VALUE;
            for (int r = 0; r < n; r++) {
                lo = Math.min(lo, requests[4 * r]);
                hi = Math.max(hi, requests[4 * r + 1]);
            }
            int a = Math.min(aggregators, n);
            long domain = hi <= lo ? 1 : (hi - lo + a - 1) / a;
            piecesTo = new int[n];
            bytesTo = new int[n];
            List<long[]> cut = new ArrayList<>();
            for (ViewLayout.Piece p : mine) {
                long offset = p.offset();
                long left = p.length();
                while (left > 0) {
                    int to = (int) ((offset - lo) / domain);
                    long part = Math.min(left, lo + (to + 1) * domain - offset);
                    cut.add(new long[] {offset, part});
                    piecesTo[to]++;
                    bytesTo[to] = Math.toIntExact(bytesTo[to] + part);
                    offset += part;
                    left -= part;
                }
            }
            piecesFrom = new int[n];
            collective(OPERATION, CollFunction.ALLTOALL, c -> c.allToAll(pairs(piecesTo), 1, Type.INT, piecesFrom, 1,
                    Type.INT));
            pieceDispls = displacements(pairs(piecesFrom));
            long[] sent = new long[2 * cut.size()];
            for (int i = 0; i < cut.size(); i++) {
                sent[2 * i] = cut.get(i)[0];
                sent[2 * i + 1] = cut.get(i)[1];
            }
            received = new long[2 * Arrays.stream(piecesFrom).sum()];
            collective(OPERATION, CollFunction.ALLTOALLV, c -> c.allToAllv(sent, pairs(piecesTo),
                    displacements(pairs(piecesTo)), Type.LONG, received, pairs(piecesFrom), pieceDispls, Type.LONG));
        }

        /** The bytes process {@code r}'s pieces hold. */
        int bytesFrom(int r) {
            long bytes = 0;
            for (int i = 0; i < piecesFrom[r]; i++) {
                bytes += received[pieceDispls[r] + 2 * i + 1];
            }
            return Math.toIntExact(bytes);
        }

        /** The file range this aggregator's pieces span: {first byte, end}, or null for none. */
        long[] span() {
            if (received.length == 0) {
                return null;
            }
            long first = Long.MAX_VALUE;
            long end = Long.MIN_VALUE;
            for (int i = 0; i < received.length; i += 2) {
                first = Math.min(first, received[i]);
                end = Math.max(end, received[i] + received[i + 1]);
            }
            return new long[] {first, end};
        }
    }

    private static int[] pairs(int[] counts) {
        return Arrays.stream(counts).map(c -> 2 * c).toArray();
    }

    private static int[] displacements(int[] counts) {
        int[] displs = new int[counts.length];
        for (int i = 1; i < counts.length; i++) {
            displs[i] = displs[i - 1] + counts[i - 1];
        }
        return displs;
    }

    /**
     * Direct buffers kept from call to call and from file to file: no garbage, no new direct
     * memory to zero and fault in for every open (that took 30 ms of each 8 MiB collective
     * write), and channel I/O without NIO's bounce copies. They belong to one MPI process (its
     * {@link JobRuntime}), not to this class: with {@code --ranks-as threads} every rank of the JVM
     * shares this class, and static buffers let the ranks' concurrent collectives overwrite each
     * other's bytes. A call takes the process's set for its duration ({@link #take}), so even
     * overlapping calls of one process (THREAD_MULTIPLE) never share a buffer.
     */
    static final class Buffers {
        /** Larger buffers are let go after the call that needed them. */
        private static final int RETAINED = 64 << 20;

        ByteBuffer incoming;
        ByteBuffer domain;
        ByteBuffer staging;

        void trim() {
            incoming = incoming != null && incoming.capacity() > RETAINED ? null : incoming;
            domain = domain != null && domain.capacity() > RETAINED ? null : domain;
            staging = staging != null && staging.capacity() > RETAINED ? null : staging;
        }
    }

    /** The process's buffers for one call (a new set if another call of the process holds them). */
    private Buffers take() {
        Buffers b = group.runtime.ioBuffers.getAndSet(null);
        return b != null ? b : new Buffers();
    }

    /** Gives the call's buffers back to the process, trimmed. */
    private void give(Buffers b) {
        b.trim();
        group.runtime.ioBuffers.set(b);
    }

    private static ByteBuffer room(ByteBuffer buffer, long bytes) {
        if (buffer != null && buffer.capacity() >= bytes) {
            return buffer;
        }
        long grown = Math.max(bytes, buffer == null ? 0 : 2L * buffer.capacity());
        return ByteBuffer.allocateDirect(Math.toIntExact(Math.min(grown, Integer.MAX_VALUE - 8)));
    }

    /** {@code data} as a buffer the public calls take in place; else a copy in the staging buffer ({@code copyIn}). */
    private static ByteBuffer inPlace(Buffers b, MemorySegment data, boolean copyIn) {
        if (data.isNative() || data.heapBase().orElse(null) instanceof byte[]) {
            return data.asByteBuffer();
        }
        b.staging = room(b.staging, data.byteSize());
        if (copyIn) {
            MemorySegment.copy(data, 0, MemorySegment.ofBuffer(b.staging.clear()), 0, data.byteSize());
        }
        return b.staging;
    }

    /** Writes {@code data}, the bytes of {@code pieces} one after another. Collective. */
    public void write(List<ViewLayout.Piece> pieces, MemorySegment data) throws IOException {
        Buffers b = take();
        try {
            write(b, pieces, data);
        } finally {
            give(b);
        }
    }

    private void write(Buffers b, List<ViewLayout.Piece> pieces, MemorySegment data) throws IOException {
        long[] requests = requests(pieces);
        if (!twoPhase(forWrites, requests)) {
            FilePieces.write(channel, pieces, inPlace(b, data, true));
            return;
        }
        Exchange x = new Exchange(pieces, requests);
        int[] bytesFrom = new int[x.n];
        for (int r = 0; r < x.n; r++) {
            bytesFrom[r] = x.bytesFrom(r);
        }
        b.incoming = room(b.incoming, Arrays.stream(bytesFrom).asLongStream().sum());
        ByteBuffer outgoing = inPlace(b, data, true);
        collective(OPERATION, CollFunction.ALLTOALLV, c -> c.allToAllv(outgoing, x.bytesTo,
                displacements(x.bytesTo), Type.BYTE, b.incoming, bytesFrom, displacements(bytesFrom), Type.BYTE));
        IOException failure = null;
        try {
            writeDomain(b, x, MemorySegment.ofBuffer(b.incoming.clear()));
        } catch (IOException e) {
            failure = e;
        } catch (RuntimeException | OutOfMemoryError e) { // every process must still reach the agreement
            failure = new IOException(e.toString(), e);
        }
        agree(failure);
    }

    /**
     * Ends a collective access: every process returns once every aggregator's accesses are done
     * (so a process reads what it wrote), and fails if any aggregator failed.
     */
    private void agree(IOException failure) throws IOException {
        int[] failed = {failure == null ? 0 : 1};
        int[] any = new int[1];
        collective(OPERATION, CollFunction.ALLREDUCE, c -> c.reduction(failed, any, 1, Type.INT, MAX_INT, 0,
                false));
        if (failure != null) {
            throw failure;
        }
        if (any[0] != 0) {
            throw new IOException("an aggregator of the collective access failed (its process reports why)");
        }
    }

    /** Places the pieces' bytes in the domain (lower ranks first where they overlap) and writes its covered runs. */
    private void writeDomain(Buffers b, Exchange x, MemorySegment bytes) throws IOException {
        long[] span = x.span();
        if (span == null) {
            return;
        }
        int length = Math.toIntExact(span[1] - span[0]);
        b.domain = room(b.domain, length);
        ByteBuffer domain = b.domain;
        MemorySegment buffer = MemorySegment.ofBuffer(domain.clear());
        java.util.BitSet covered = new java.util.BitSet(length);
        long at = 0;
        for (int i = 0; i < x.received.length; i += 2) {
            int from = (int) (x.received[i] - span[0]);
            int n = (int) x.received[i + 1];
            MemorySegment.copy(bytes, at, buffer, from, n);
            covered.set(from, from + n);
            at += n;
        }
        for (int start = covered.nextSetBit(0); start >= 0; start = covered.nextSetBit(start)) {
            int end = covered.nextClearBit(start);
            ByteBuffer run = domain.clear().limit(end).position(start);
            long position = span[0] + start;
            while (run.hasRemaining()) {
                position += channel.write(run, position);
            }
            start = end;
        }
    }

    /**
     * Reads the bytes of {@code pieces} into {@code data}, one after another; returns how many
     * lie before the end of the file. Collective.
     */
    public long read(List<ViewLayout.Piece> pieces, MemorySegment data) throws IOException {
        Buffers b = take();
        try {
            return read(b, pieces, data);
        } finally {
            give(b);
        }
    }

    private long read(Buffers b, List<ViewLayout.Piece> pieces, MemorySegment data) throws IOException {
        long[] requests = requests(pieces);
        if (!twoPhase(forReads, requests)) {
            ByteBuffer bytes = inPlace(b, data, false);
            int read = FilePieces.read(channel, pieces, bytes);
            if (bytes == b.staging) {
                MemorySegment.copy(MemorySegment.ofBuffer(b.staging.clear()), 0, data, 0, data.byteSize());
            }
            return read;
        }
        Exchange x = new Exchange(pieces, requests);
        long[] span = x.span();
        int[] bytesFrom = new int[x.n];
        IOException failure = null;
        if (span != null) {
            try {
                readDomain(b, x, span, bytesFrom);
            } catch (IOException e) {
                failure = e;
                Arrays.fill(bytesFrom, 0);
            } catch (RuntimeException | OutOfMemoryError e) { // every process must still reach the agreement
                failure = new IOException(e.toString(), e);
                Arrays.fill(bytesFrom, 0);
            }
        }
        agree(failure);
        ByteBuffer target = inPlace(b, data, false);
        b.incoming = room(b.incoming, 0); // a process that is no aggregator sends nothing from it
        ByteBuffer outgoing = b.incoming;
        collective(OPERATION, CollFunction.ALLTOALLV, c -> c.allToAllv(outgoing, bytesFrom,
                displacements(bytesFrom), Type.BYTE, target, x.bytesTo, displacements(x.bytesTo), Type.BYTE));
        if (target == b.staging) {
            MemorySegment.copy(MemorySegment.ofBuffer(b.staging.clear()), 0, data, 0, data.byteSize());
        }
        return readBefore(pieces, channel.size());
    }

    /** The bytes of {@code pieces} (in file order) before the end of the file. */
    private static long readBefore(List<ViewLayout.Piece> pieces, long size) {
        long read = 0;
        for (ViewLayout.Piece p : pieces) {
            read += Math.max(0, Math.min(p.length(), size - p.offset()));
        }
        return read;
    }

    /**
     * Reads the span of the pieces asked for once (data sieving) and puts each process's bytes,
     * process by process, in the incoming buffer, which then goes out; sets {@code bytesFrom}.
     */
    private void readDomain(Buffers b, Exchange x, long[] span, int[] bytesFrom) throws IOException {
        int length = Math.toIntExact(span[1] - span[0]);
        b.domain = room(b.domain, length);
        ByteBuffer whole = b.domain.clear().limit(length);
        while (whole.hasRemaining() && channel.read(whole, span[0] + whole.position()) > 0) {
            // until the span is read or the file ends
        }
        int got = whole.position();
        MemorySegment read = MemorySegment.ofBuffer(b.domain.clear());
        read.asSlice(got, length - got).fill((byte) 0); // beyond the end of the file: zeros
        long total = 0;
        for (int r = 0; r < x.n; r++) {
            bytesFrom[r] = x.bytesFrom(r);
            total += bytesFrom[r];
        }
        b.incoming = room(b.incoming, total);
        MemorySegment outgoing = MemorySegment.ofBuffer(b.incoming.clear());
        long at = 0;
        for (int i = 0; i < x.received.length; i += 2) {
            int n = (int) x.received[i + 1];
            MemorySegment.copy(read, x.received[i] - span[0], outgoing, at, n);
            at += n;
        }
    }
}
