package org.jmca.tests.programs;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.IntBuffer;
import java.util.Arrays;
import mpi.Datatype;
import mpi.DoubleComplex;
import mpi.DoubleInt;
import mpi.Intracomm;
import mpi.MPI;
import mpi.MPIException;
import mpi.Status;
import mpi.Struct;

/**
 * Derived datatypes between ranks: a matrix column (vector) sent to a contiguous row, a struct in
 * a ByteBuffer, indexed blocks, a bcast and a gather of laid-out elements, an allreduce over a
 * contiguous type of doubles, pack/unpack sent as MPI.PACKED, and the errors of an uncommitted,
 * freed or predefined type. Prints "PASS derived types" per rank.
 */
public final class DerivedTypes {
    public static void main(String[] args) throws MPIException {
        MPI.Init(args);
        Intracomm world = MPI.COMM_WORLD;
        int rank = world.getRank();
        int size = world.getSize();
        int n = 5;

        // column 2 of an n x n row-major matrix, as a vector, into a contiguous row at the receiver
        Datatype column = Datatype.createVector(n, 1, n, MPI.INT);
        column.commit();
        Check.equal(column.getSize(), 4L * n, "vector size");
        Check.equal(column.getExtent(), 4L * ((n - 1) * n + 1), "vector extent");
        int[] matrix = new int[n * n];
        for (int i = 0; i < matrix.length; i++) {
            matrix[i] = rank * 1000 + i;
        }
        int to = (rank + 1) % size;
        int from = (rank + size - 1) % size;
        int[] row = new int[n];
        int[] shifted = Arrays.copyOfRange(matrix, 2, matrix.length);
        Status status = world.sendRecv(shifted, 1, column, to, 1, row, n, MPI.INT, from, 1);
        for (int i = 0; i < n; i++) {
            Check.equal(row[i], from * 1000 + 2 + i * n, "column element " + i);
        }
        Check.equal(status.getCount(MPI.INT), n, "count of the column's ints");
        // and back: a contiguous row into a column of a zeroed matrix
        int[] back = new int[n * n];
        world.sendRecv(row, n, MPI.INT, from, 2, back, 1, column, to, 2);
        for (int i = 0; i < n * n; i++) {
            Check.equal(back[i], i % n == 0 ? rank * 1000 + 2 + i : 0, "column received, element " + i);
        }

        // a struct {int id; double value} with a gap, 16 bytes, in a ByteBuffer
        Datatype pair = Datatype.createStruct(new int[] {1, 1}, new int[] {0, 8}, new Datatype[] {MPI.INT, MPI.DOUBLE});
        pair.commit();
        Check.equal(pair.getSize(), 12, "struct size");
        Check.equal(pair.getExtent(), 16, "struct extent");
        ByteBuffer mine = ByteBuffer.allocateDirect(48).order(ByteOrder.nativeOrder());
        for (int i = 0; i < 3; i++) {
            mine.putInt(16 * i, rank * 10 + i).putInt(16 * i + 4, -1).putDouble(16 * i + 8, rank + i / 10.0);
        }
        ByteBuffer theirs = ByteBuffer.allocateDirect(48).order(ByteOrder.nativeOrder());
        world.sendRecv(mine, 3, pair, to, 3, theirs, 3, pair, from, 3);
        for (int i = 0; i < 3; i++) {
            Check.equal(theirs.getInt(16 * i), from * 10 + i, "struct id " + i);
            Check.equal(theirs.getInt(16 * i + 4), 0, "the struct's gap is not written");
            Check.that(theirs.getDouble(16 * i + 8) == from + i / 10.0, "struct value " + i);
        }

        // indexed blocks: elements {1, 2} and {6} of a long[]
        Datatype picked = Datatype.createIndexed(new int[] {2, 1}, new int[] {1, 6}, MPI.LONG);
        picked.commit();
        long[] longs = new long[8];
        Arrays.setAll(longs, i -> rank * 100L + i);
        long[] gotLongs = new long[3];
        world.sendRecv(longs, 1, picked, to, 4, gotLongs, 3, MPI.LONG, from, 4);
        Check.that(Arrays.equals(gotLongs, new long[] {from * 100L + 1, from * 100L + 2, from * 100L + 6}),
                "indexed: " + Arrays.toString(gotLongs));

        // bcast of two columns (the vector resized to one int, so element 1 is column 1)
        Datatype columns = Datatype.createResized(column, 0, 4);
        columns.commit();
        int[] square = new int[n * n];
        if (rank == 0) {
            Arrays.setAll(square, i -> 7 + i);
        }
        world.bcast(square, 2, columns, 0);
        for (int i = 0; i < n * n; i++) {
            Check.equal(square[i], i % n < 2 ? 7 + i : rank == 0 ? 7 + i : 0, "bcast of two columns, element " + i);
        }

        // gather one column from every rank into consecutive resized columns at the root
        int[] gathered = new int[n * Math.max(n, size)];
        int[] own = new int[n];
        Arrays.fill(own, rank + 1);
        Datatype gatherColumn = Datatype.createResized(Datatype.createVector(n, 1, Math.max(n, size), MPI.INT), 0, 4);
        gatherColumn.commit();
        world.gather(own, n, MPI.INT, gathered, 1, gatherColumn, 0);
        if (rank == 0) {
            for (int r = 0; r < size; r++) {
                for (int i = 0; i < n; i++) {
                    Check.equal(gathered[i * Math.max(n, size) + r], r + 1, "gathered column " + r + " row " + i);
                }
            }
        }

        // allreduce over a contiguous type of 3 doubles
        Datatype triple = Datatype.createContiguous(3, MPI.DOUBLE);
        triple.commit();
        double[] values = {rank, 2 * rank, 1, rank, 2 * rank, 1};
        double[] sums = new double[6];
        world.allReduce(values, sums, 2, triple, MPI.SUM);
        double total = size * (size - 1) / 2.0;
        Check.that(Arrays.equals(sums, new double[] {total, 2 * total, size, total, 2 * total, size}),
                "allreduce of a contiguous type: " + Arrays.toString(sums));

        // pack an int and a column, send as MPI.PACKED, unpack
        byte[] packed = new byte[world.packSize(1, MPI.INT) + world.packSize(1, column)];
        int position = world.pack(new int[] {rank}, 1, MPI.INT, packed, 0);
        position = world.pack(matrix, 1, column, packed, position);
        Check.equal(position, packed.length, "pack position");
        byte[] incoming = new byte[packed.length];
        world.sendRecv(packed, packed.length, MPI.PACKED, to, 5, incoming, incoming.length, MPI.PACKED, from, 5);
        int[] sender = new int[1];
        int[] unpacked = new int[n * n];
        int at = world.unpack(incoming, 0, sender, 1, MPI.INT);
        at = world.unpack(incoming, at, unpacked, 1, column);
        Check.equal(sender[0], from, "unpacked int");
        Check.equal(at, incoming.length, "unpack position");
        for (int i = 0; i < n; i++) {
            Check.equal(unpacked[i * n], from * 1000 + i * n, "unpacked column " + i);
        }

        structsPairsAndComplexNumbers(world, rank, size, to, from);
        allToAllwAndInPlaceVectors(world, rank, size);

        // errors
        world.setErrhandler(MPI.ERRORS_RETURN);
        Datatype uncommitted = Datatype.createVector(2, 1, 2, MPI.INT);
        Check.fails(MPI.ERR_TYPE, () -> world.send(new int[4], 1, uncommitted, to, 6), "an uncommitted type");
        Check.fails(MPI.ERR_TYPE, MPI.INT::free, "freeing a predefined type");
        picked.free();
        Check.that(picked.isNull() && MPI.DATATYPE_NULL.isNull(), "a freed type is null");
        Check.fails(MPI.ERR_TYPE, () -> world.send(longs, 1, picked, to, 6), "a freed type");
        Check.fails(MPI.ERR_BUFFER, () -> world.send(new int[10], 1, column, to, 6), "a buffer shorter than the type spans");

        world.barrier();
        System.out.println("PASS derived types rank " + rank);
        MPI.Finalize();
    }

    /** A struct as Open MPI's bindings let programs write one: fields added in the constructor, a Data view. */
    static final class Particle extends Struct {
        private final int id = addInt();
        private final int position = addDouble(3);
        private final int label = addChar();

        @Override
        protected Data newData() {
            return new Data();
        }

        final class Data extends Struct.Data {
            int id() {
                return getInt(id);
            }

            double position(int axis) {
                return getDouble(position, axis);
            }

            char label() {
                return getChar(label);
            }

            void set(int newId, double x, char newLabel) {
                putInt(id, newId);
                for (int axis = 0; axis < 3; axis++) {
                    putDouble(position, axis, x + axis);
                }
                putChar(label, newLabel);
            }
        }
    }

    /** alltoallw: a block per rank with its own type and byte displacement; the in-place v-collectives. */
    private static void allToAllwAndInPlaceVectors(Intracomm world, int rank, int size) throws MPIException {
        ByteBuffer send = MPI.newByteBuffer(16 * size);
        ByteBuffer receive = MPI.newByteBuffer(16 * size);
        int[] counts = new int[size];
        int[] sendAt = new int[size];
        int[] receiveAt = new int[size];
        Datatype[] types = new Datatype[size];
        Datatype pairOfInts = Datatype.createContiguous(2, MPI.INT);
        pairOfInts.commit();
        for (int r = 0; r < size; r++) {
            counts[r] = 1;
            sendAt[r] = 16 * r;
            receiveAt[r] = 16 * (size - 1 - r);
            types[r] = r % 2 == 0 ? MPI.LONG : pairOfInts;
            send.putInt(16 * r, rank * 100 + r).putInt(16 * r + 4, -rank);
        }
        world.iAllToAllw(send, counts, sendAt, types, receive, counts, receiveAt, types).waitFor();
        for (int r = 0; r < size; r++) {
            Check.that(receive.getInt(16 * (size - 1 - r)) == r * 100 + rank
                    && receive.getInt(16 * (size - 1 - r) + 4) == -r, "alltoallw block from rank " + r);
        }

        IntBuffer all = MPI.newIntBuffer(size);
        int[] ones = new int[size];
        int[] at = new int[size];
        for (int r = 0; r < size; r++) {
            ones[r] = 1;
            at[r] = size - 1 - r;
        }
        if (rank == 0) {
            all.put(size - 1, 42);
            world.iGatherv(all, ones, at, MPI.INT, 0).waitFor();
            for (int r = 0; r < size; r++) {
                Check.equal(all.get(size - 1 - r), r == 0 ? 42 : r * 7, "in-place iGatherv, rank " + r);
            }
        } else {
            world.iGatherv(MPI.newIntBuffer(1).put(0, rank * 7), 1, MPI.INT, 0).waitFor();
        }
        IntBuffer everyone = MPI.newIntBuffer(size);
        everyone.put(size - 1 - rank, rank + 1000);
        world.iAllGatherv(everyone, ones, at, MPI.INT).waitFor();
        for (int r = 0; r < size; r++) {
            Check.equal(everyone.get(size - 1 - r), r + 1000, "in-place iAllGatherv, rank " + r);
        }
    }

    private static void structsPairsAndComplexNumbers(Intracomm world, int rank, int size, int to, int from)
            throws MPIException {
        Particle particle = new Particle();
        Check.equal(particle.getExtent(), 40, "the struct's extent: int, 3 doubles at 8, a char, padded to 8");
        ByteBuffer mine = MPI.newByteBuffer(4 * 40);
        ByteBuffer theirs = MPI.newByteBuffer(4 * 40);
        for (int i = 0; i < 4; i++) {
            Particle.Data p = particle.getData(mine, i);
            p.set(rank * 10 + i, rank + i / 4.0, (char) ('a' + rank));
        }
        world.sendRecv(mine, 4, particle.getType(), to, 9, theirs, 4, particle.getType(), from, 9);
        for (int i = 0; i < 4; i++) {
            Particle.Data p = particle.getData(theirs, i);
            Check.that(p.id() == from * 10 + i && p.position(2) == from + i / 4.0 + 2 && p.label() == 'a' + from,
                    "particle " + i + " from rank " + from);
        }

        // MINLOC over (double, int) pairs written through MPI.doubleInt
        ByteBuffer pair = MPI.newByteBuffer(16);
        DoubleInt.Data value = MPI.doubleInt.getData(pair);
        value.putValue(rank == size - 1 ? -1.5 : rank);
        value.putIndex(rank * 3);
        ByteBuffer least = MPI.newByteBuffer(16);
        world.allReduce(pair, least, 1, MPI.doubleInt.getType(), MPI.MINLOC);
        DoubleInt.Data found = MPI.doubleInt.getData(least);
        Check.that(found.getValue() == -1.5 && found.getIndex() == (size - 1) * 3, "MINLOC through MPI.doubleInt");

        // complex numbers: (rank + 1) + 2i summed
        double[] z = {rank + 1, 2, 1, rank};
        double[] sum = new double[4];
        world.allReduce(z, sum, 2, MPI.DOUBLE_COMPLEX, MPI.SUM);
        DoubleComplex first = DoubleComplex.get(sum, 0);
        DoubleComplex second = DoubleComplex.get(sum, 1);
        Check.that(first.getReal() == size * (size + 1) / 2.0 && first.getImag() == 2 * size
                && second.getReal() == size && second.getImag() == size * (size - 1) / 2.0, "complex sums");
        world.setErrhandler(MPI.ERRORS_RETURN);
        Check.fails(MPI.ERR_OP, () -> world.allReduce(z, sum, 2, MPI.DOUBLE_COMPLEX, MPI.PROD), "a complex product");
        world.setErrhandler(MPI.ERRORS_ARE_FATAL);
    }
}
