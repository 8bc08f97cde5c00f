package mpi;

/** The version of the MPI standard this library implements ({@link MPI#getVersion()}). */
public final class Version {
    private final int version;
    private final int subVersion;

    Version(int version, int subVersion) {
        this.version = version;
        this.subVersion = subVersion;
    }

    public int getVersion() {
        return version;
    }

    public int getSubVersion() {
        return subVersion;
    }
}
