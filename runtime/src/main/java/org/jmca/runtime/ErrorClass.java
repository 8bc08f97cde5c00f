package org.jmca.runtime;

/**
 * MPI's error classes, numbered as in Open MPI's mpi.h (the {@code mpi} package's
 * {@code MPI.ERR_*} constants are these), and their names.
 */
public final class ErrorClass {
    public static final int SUCCESS = 0;
    public static final int BUFFER = 1;
    public static final int COUNT = 2;
    public static final int TYPE = 3;
    public static final int TAG = 4;
    public static final int COMM = 5;
    public static final int RANK = 6;
    public static final int REQUEST = 7;
    public static final int ROOT = 8;
    public static final int GROUP = 9;
    public static final int OP = 10;
    public static final int TOPOLOGY = 11;
    public static final int DIMS = 12;
    public static final int ARG = 13;
    public static final int UNKNOWN = 14;
    public static final int TRUNCATE = 15;
    public static final int OTHER = 16;
    public static final int INTERN = 17;
    public static final int IN_STATUS = 18;
    public static final int PENDING = 19;
    public static final int ACCESS = 20;
    public static final int AMODE = 21;
    public static final int ASSERT = 22;
    public static final int BAD_FILE = 23;
    public static final int BASE = 24;
    public static final int CONVERSION = 25;
    public static final int DISP = 26;
    public static final int DUP_DATAREP = 27;
    public static final int FILE_EXISTS = 28;
    public static final int FILE_IN_USE = 29;
    public static final int FILE = 30;
    public static final int INFO_KEY = 31;
    public static final int INFO_NOKEY = 32;
    public static final int INFO_VALUE = 33;
    public static final int INFO = 34;
    public static final int IO = 35;
    public static final int KEYVAL = 36;
    public static final int LOCKTYPE = 37;
    public static final int NAME = 38;
    public static final int NO_MEM = 39;
    public static final int NOT_SAME = 40;
    public static final int NO_SPACE = 41;
    public static final int NO_SUCH_FILE = 42;
    public static final int PORT = 43;
    public static final int QUOTA = 44;
    public static final int READ_ONLY = 45;
    public static final int RMA_CONFLICT = 46;
    public static final int RMA_SYNC = 47;
    public static final int SERVICE = 48;
    public static final int SIZE = 49;
    public static final int SPAWN = 50;
    public static final int UNSUPPORTED_DATAREP = 51;
    public static final int UNSUPPORTED_OPERATION = 52;
    public static final int WIN = 53;
    /** MPI_ERR_RMA_RANGE: target memory outside the window (a JMCA addition: Open MPI's bindings have no constant for it). */
    public static final int RMA_RANGE = 68;
    /** MPI_ERR_RMA_SHARED: a shared-memory window over ranks that share no memory (a JMCA addition). */
    public static final int RMA_SHARED = 71;
    /** MPI_ERR_RMA_FLAVOR: a call the window's flavor does not allow (a JMCA addition). */
    public static final int RMA_FLAVOR = 70;
    public static final int LASTCODE = 92;
    public static final int SYSRESOURCE = -2;

    private static final String[] NAMES = {
        "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG", "MPI_ERR_COMM",
        "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
        "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN",
        "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING", "MPI_ERR_ACCESS", "MPI_ERR_AMODE", "MPI_ERR_ASSERT", "MPI_ERR_BAD_FILE",
        "MPI_ERR_BASE", "MPI_ERR_CONVERSION", "MPI_ERR_DISP", "MPI_ERR_DUP_DATAREP", "MPI_ERR_FILE_EXISTS",
        "MPI_ERR_FILE_IN_USE", "MPI_ERR_FILE", "MPI_ERR_INFO_KEY", "MPI_ERR_INFO_NOKEY", "MPI_ERR_INFO_VALUE",
        "MPI_ERR_INFO", "MPI_ERR_IO", "MPI_ERR_KEYVAL", "MPI_ERR_LOCKTYPE", "MPI_ERR_NAME", "MPI_ERR_NO_MEM",
        "MPI_ERR_NOT_SAME", "MPI_ERR_NO_SPACE", "MPI_ERR_NO_SUCH_FILE", "MPI_ERR_PORT", "MPI_ERR_QUOTA",
        "MPI_ERR_READ_ONLY", "MPI_ERR_RMA_CONFLICT", "MPI_ERR_RMA_SYNC", "MPI_ERR_SERVICE", "MPI_ERR_SIZE",
        "MPI_ERR_SPAWN", "MPI_ERR_UNSUPPORTED_DATAREP", "MPI_ERR_UNSUPPORTED_OPERATION", "MPI_ERR_WIN"
    };

    private ErrorClass() {
    }

    /** "MPI_ERR_RANK" for {@link #RANK}. */
    public static String name(int errorClass) {
        return switch (errorClass) {
            case RMA_RANGE -> "MPI_ERR_RMA_RANGE";
            case RMA_SHARED -> "MPI_ERR_RMA_SHARED";
            case RMA_FLAVOR -> "MPI_ERR_RMA_FLAVOR";
            case SYSRESOURCE -> "MPI_ERR_SYSRESOURCE";
            default -> errorClass >= 0 && errorClass < NAMES.length ? NAMES[errorClass] : "MPI_ERR_" + errorClass;
        };
    }
}
