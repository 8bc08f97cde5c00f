package mpi;

/** Names of the error classes, numbered as in Open MPI's mpi.h. */
final class ErrorClasses {
    private static final String[] NAMES = {
        "MPI_SUCCESS", "MPI_ERR_BUFFER", "MPI_ERR_COUNT", "MPI_ERR_TYPE", "MPI_ERR_TAG", "MPI_ERR_COMM",
        "MPI_ERR_RANK", "MPI_ERR_REQUEST", "MPI_ERR_ROOT", "MPI_ERR_GROUP", "MPI_ERR_OP", "MPI_ERR_TOPOLOGY",
        "MPI_ERR_DIMS", "MPI_ERR_ARG", "MPI_ERR_UNKNOWN", "MPI_ERR_TRUNCATE", "MPI_ERR_OTHER", "MPI_ERR_INTERN",
        "MPI_ERR_IN_STATUS", "MPI_ERR_PENDING"
    };

    private ErrorClasses() {
    }

    static String name(int errorClass) {
        return errorClass >= 0 && errorClass < NAMES.length ? NAMES[errorClass] : "MPI_ERR_" + errorClass;
    }
}
