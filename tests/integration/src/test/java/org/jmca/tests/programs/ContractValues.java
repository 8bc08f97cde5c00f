package org.jmca.tests.programs;

import java.nio.Buffer;
import java.nio.DoubleBuffer;
import java.nio.IntBuffer;
import java.util.function.IntToDoubleFunction;
import mpi.Datatype;
import mpi.MPI;
import mpi.Op;
import mpi.UserFunction;

/**
 * The values of {@link CollectiveContract}: what each rank contributes, deterministically from its
 * rank and the element's index, what a sequential run over the ranks computes from them, and the
 * buffers that hold them.
 */
final class ContractValues {
    /** What a receive buffer holds where no result may be written; never a rank's value. */
    static final int SENTINEL = -1;
    private static final Op COMPOSE = new Op(new Compose(), false);

    private ContractValues() {
    }

    /** Rank {@code r}'s element {@code i}: never SENTINEL. */
    static int value(int r, int i) {
        return r * 1_000_003 + i * 7 + 1;
    }

    /** Element {@code i} of the block rank {@code from} sends rank {@code to}. */
    static int cell(int from, int to, int i) {
        return value(from, to * 100_003 + i);
    }

    /**
     * A reduction of the contract: its datatype, operation, operands and the sequential result.
     * Every operand is a small integer or a multiple of 1/4, so sums and products are exact in
     * whatever order a component combines them.
     */
    enum Operation {
        INT_SUM, INT_MAX, INT_MIN, INT_PROD, DOUBLE_SUM, DOUBLE_MAX, DOUBLE_MIN, DOUBLE_PROD,
        /** Pairs (a, b), the maps x -> a x + b on MPI.INT2, composed in rank order: not commutative. */
        AFFINE;

        boolean doubles() {
            return name().startsWith("DOUBLE");
        }

        /** Ints or doubles per element. */
        int width() {
            return this == AFFINE ? 2 : 1;
        }

        Datatype type() {
            return this == AFFINE ? MPI.INT2 : doubles() ? MPI.DOUBLE : MPI.INT;
        }

        Op op() {
            return switch (this) {
                case INT_SUM, DOUBLE_SUM -> MPI.SUM;
                case INT_MAX, DOUBLE_MAX -> MPI.MAX;
                case INT_MIN, DOUBLE_MIN -> MPI.MIN;
                case INT_PROD, DOUBLE_PROD -> MPI.PROD;
                case AFFINE -> COMPOSE;
            };
        }

        /** Slot {@code s} of rank {@code r}'s operand for element {@code k}. */
        double operand(int r, int k, int s) {
            int spread = (k * 31 + r * 17) % 97 - 48; // a different value on every rank
            return switch (this) {
                case INT_SUM -> (r + 1) * (k % 1000 - 500) + k % 7;
                case INT_MAX, INT_MIN -> spread;
                case INT_PROD -> ((k + 2 * r) % 5 == 0 ? -1 : 1) * (1 + (k + r) % 3);
                case DOUBLE_SUM -> (k % 1000 - 500 + 3 * r) * 0.25;
                case DOUBLE_MAX, DOUBLE_MIN -> spread * 0.5;
                case DOUBLE_PROD -> (1 + (k + r) % 3) * ((k + r) % 2 == 0 ? 0.5 : -1.0);
                case AFFINE -> s == 0 ? 1 + (k + r) % 3 : k % 11 - 5 + r;
            };
        }

        /** Slot {@code s} of element {@code k} combined over ranks 0..ranks-1 in rank order: c0 op c1 op ... */
        double fold(int ranks, int k, int s) {
            double acc = operand(0, k, 0);
            double b = operand(0, k, 1);
            for (int r = 1; r < ranks; r++) {
                double x = operand(r, k, 0);
                switch (this) {
                    case INT_SUM, DOUBLE_SUM -> acc += x;
                    case INT_MAX, DOUBLE_MAX -> acc = Math.max(acc, x);
                    case INT_MIN, DOUBLE_MIN -> acc = Math.min(acc, x);
                    case INT_PROD, DOUBLE_PROD -> acc *= x;
                    case AFFINE -> { // (acc, b) then (x, y): x (acc v + b) + y
                        b = x * b + operand(r, k, 1);
                        acc *= x;
                    }
                }
            }
            return s == 0 ? acc : b;
        }
    }

    /** (a, b) op (c, d): x -> c (a x + b) + d, the lower rank's map applied first. */
    static final class Compose extends UserFunction {
        @Override
        public void call(Object inVec, Object inOutVec, int count, Datatype datatype) {
            int[] in = (int[]) inVec;
            int[] io = (int[]) inOutVec;
            for (int i = 0; i < count; i++) {
                io[2 * i + 1] = io[2 * i] * in[2 * i + 1] + io[2 * i + 1];
                io[2 * i] *= in[2 * i];
            }
        }
    }

    /** Ints or doubles: a Java array for a blocking call, a direct buffer (which non-blocking calls take). */
    static final class Vec {
        final Object data;

        Vec(boolean doubles, int length, boolean direct) {
            int n = Math.max(1, length);
            data = direct ? (doubles ? MPI.newDoubleBuffer(n) : MPI.newIntBuffer(n))
                    : (doubles ? new double[length] : new int[length]);
        }

        Buffer buffer() {
            return (Buffer) data;
        }

        double get(int i) {
            return switch (data) {
                case int[] a -> a[i];
                case double[] a -> a[i];
                case IntBuffer b -> b.get(i);
                case DoubleBuffer b -> b.get(i);
                default -> throw new IllegalStateException();
            };
        }

        Vec fill(int from, int length, IntToDoubleFunction value) {
            for (int i = 0; i < length; i++) {
                double v = value.applyAsDouble(i);
                switch (data) {
                    case int[] a -> a[from + i] = (int) v;
                    case double[] a -> a[from + i] = v;
                    case IntBuffer b -> b.put(from + i, (int) v);
                    case DoubleBuffer b -> b.put(from + i, v);
                    default -> throw new IllegalStateException();
                }
            }
            return this;
        }
    }
}
