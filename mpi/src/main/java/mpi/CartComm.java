package mpi;

import java.util.ArrayList;
import java.util.List;

/**
 * A communicator whose ranks form a Cartesian grid ({@link Intracomm#createCart}): rank r has
 * the coordinates of r in row-major order (the last dimension varies fastest).
 */
public final class CartComm extends Intracomm {
    private final int[] dims;
    private final boolean[] periods;

    CartComm(String name, int[] dims, boolean[] periods) {
        super(name);
        this.dims = dims;
        this.periods = periods;
    }

    /** The number of grid cells, after checking the arguments of a grid on {@code comm}. */
    static int cells(int[] dims, boolean[] periods, Comm comm) throws MPIException {
        if (dims == null || periods == null || dims.length != periods.length) {
            throw comm.failure("MPI_Cart_create", new MPIException(MPI.ERR_DIMS, "dims and periods must have the same"
                    + " length"));
        }
        long cells = 1;
        for (int d : dims) {
            if (d <= 0) {
                throw comm.failure("MPI_Cart_create", new MPIException(MPI.ERR_DIMS, "dimension " + d
                        + " is not positive"));
            }
            cells *= d;
        }
        if (cells > comm.size()) {
            throw comm.failure("MPI_Cart_create", new MPIException(MPI.ERR_DIMS, "a grid of " + cells + " cells"
                    + " needs more than the " + comm.size() + " ranks of " + comm));
        }
        return (int) cells;
    }

    /**
     * Fills the zeros of {@code dims} so that the product of all is {@code nnodes}, the free
     * dimensions as close to each other as they can be, in non-increasing order (MPI_Dims_create).
     */
    public static void createDims(int nnodes, int[] dims) throws MPIException {
        long fixed = 1;
        int free = 0;
        for (int d : dims) {
            if (d < 0) {
                throw new MPIException(MPI.ERR_DIMS, "dimension " + d + " is negative");
            }
            if (d == 0) {
                free++;
            } else {
                fixed *= d;
            }
        }
        if (nnodes <= 0 || nnodes % fixed != 0) {
            throw new MPIException(MPI.ERR_DIMS, nnodes + " nodes cannot fill dimensions whose product is " + fixed);
        }
        if (free == 0) {
            if (fixed != nnodes) {
                throw new MPIException(MPI.ERR_DIMS, "the dimensions make " + fixed + " nodes, not " + nnodes);
            }
            return;
        }
        int[] chosen = new int[free];
        java.util.Arrays.fill(chosen, 1);
        int rest = (int) (nnodes / fixed);
        // largest prime factors first, each to the smallest dimension so far
        List<Integer> factors = new ArrayList<>();
        for (int f = 2; (long) f * f <= rest; f++) {
            while (rest % f == 0) {
                factors.add(f);
                rest /= f;
            }
        }
        if (rest > 1) {
            factors.add(rest);
        }
        for (int i = factors.size() - 1; i >= 0; i--) {
            int smallest = 0;
            for (int j = 1; j < free; j++) {
                if (chosen[j] < chosen[smallest]) {
                    smallest = j;
                }
            }
            chosen[smallest] *= factors.get(i);
        }
        java.util.Arrays.sort(chosen);
        for (int i = 0, j = free - 1; i < dims.length; i++) {
            if (dims[i] == 0) {
                dims[i] = chosen[j--];
            }
        }
    }

    @Override
    CartComm sameKind(String name) {
        return new CartComm(name, dims, periods);
    }

    @Override
    public CartComm dup() throws MPIException {
        return (CartComm) super.dup();
    }

    @Override
    public CartComm dupWithInfo(Info info) throws MPIException {
        return (CartComm) super.dupWithInfo(info);
    }

    @Override
    public CartComm iDup() throws MPIException {
        return (CartComm) super.iDup();
    }

    @Override
    public CartComm clone() {
        return (CartComm) super.clone();
    }

    @Override
    int topology() {
        return MPI.CART;
    }

    public CartParms getTopo() throws MPIException {
        return call("MPI_Cart_get", rt -> new CartParms(dims, periods, coordinates(rank())));
    }

    /** The rank at {@code coords}; a coordinate outside a periodic dimension wraps round. */
    public int getRank(int[] coords) throws MPIException {
        return call("MPI_Cart_rank", rt -> {
            if (coords == null || coords.length != dims.length) {
                throw new MPIException(MPI.ERR_ARG, "coordinates need " + dims.length + " entries");
            }
            int rank = 0;
            for (int d = 0; d < dims.length; d++) {
                int c = coords[d];
                if (periods[d]) {
                    c = Math.floorMod(c, dims[d]);
                } else if (c < 0 || c >= dims[d]) {
                    throw new MPIException(MPI.ERR_ARG, "coordinate " + c + " is outside dimension " + d + " (0.."
                            + (dims[d] - 1) + ", not periodic)");
                }
                rank = rank * dims[d] + c;
            }
            return rank;
        });
    }

    public int[] getCoords(int rank) throws MPIException {
        return call("MPI_Cart_coords", rt -> {
            if (rank < 0 || rank >= size()) {
                throw new MPIException(MPI.ERR_RANK, "rank " + rank + " is not in the grid of " + size());
            }
            return coordinates(rank);
        });
    }

    private int[] coordinates(int rank) {
        int[] coords = new int[dims.length];
        for (int d = dims.length - 1; d >= 0; d--) {
            coords[d] = rank % dims[d];
            rank /= dims[d];
        }
        return coords;
    }

    /** The ranks {@code disp} steps back and forward along {@code direction} (MPI.PROC_NULL off a non-periodic edge). */
    public ShiftParms shift(int direction, int disp) throws MPIException {
        return call("MPI_Cart_shift", rt -> {
            if (direction < 0 || direction >= dims.length) {
                throw new MPIException(MPI.ERR_DIMS, "direction " + direction + " of " + dims.length + " dimensions");
            }
            return new ShiftParms(neighbour(direction, -disp), neighbour(direction, disp));
        });
    }

    private int neighbour(int direction, int step) {
        int[] coords = coordinates(rank());
        int c = coords[direction] + step;
        if (periods[direction]) {
            c = Math.floorMod(c, dims[direction]);
        } else if (c < 0 || c >= dims[direction]) {
            return MPI.PROC_NULL;
        }
        coords[direction] = c;
        int rank = 0;
        for (int d = 0; d < dims.length; d++) {
            rank = rank * dims[d] + coords[d];
        }
        return rank;
    }

    /** The sub-grids that keep the dimensions {@code remainDims} marks, one per value of the others. Collective. */
    public CartComm sub(boolean[] remainDims) throws MPIException {
        if (remainDims == null || remainDims.length != dims.length) {
            throw failure("MPI_Cart_sub", new MPIException(MPI.ERR_ARG, "remainDims needs " + dims.length
                    + " entries"));
        }
        int[] coords = coordinates(rank());
        int colour = 0;
        List<Integer> keptDims = new ArrayList<>();
        List<Boolean> keptPeriods = new ArrayList<>();
        for (int d = 0; d < dims.length; d++) {
            if (remainDims[d]) {
                keptDims.add(dims[d]);
                keptPeriods.add(periods[d]);
            } else {
                colour = colour * dims[d] + coords[d];
            }
        }
        int[] grid = keptDims.stream().mapToInt(Integer::intValue).toArray();
        boolean[] wrap = new boolean[grid.length];
        for (int i = 0; i < wrap.length; i++) {
            wrap[i] = keptPeriods.get(i);
        }
        return splitAs("MPI_Cart_sub", colour, rank(), name -> new CartComm(name, grid, wrap));
    }

    /** The rank this process would have in a grid of {@code dims}, or MPI.UNDEFINED. */
    public int map(int[] dims, boolean[] periods) throws MPIException {
        int cells = CartComm.cells(dims, periods, this);
        return call("MPI_Cart_map", rt -> rank() < cells ? rank() : MPI.UNDEFINED);
    }

    /** Neighbours for neighbourhood collectives: per dimension, the one below, then the one above. */
    @Override
    int[] inNeighbours() {
        int[] neighbours = new int[2 * dims.length];
        for (int d = 0; d < dims.length; d++) {
            neighbours[2 * d] = neighbour(d, -1);
            neighbours[2 * d + 1] = neighbour(d, 1);
        }
        return neighbours;
    }

    @Override
    int[] outNeighbours() {
        return inNeighbours();
    }
}
