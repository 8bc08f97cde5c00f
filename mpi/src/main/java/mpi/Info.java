package mpi;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Hints as key-value pairs, as MPI_Info. JMCA reads {@code ompi_comm_coll_preference} ("a,b,^c")
 * when a communicator is made with {@link Intracomm#dupWithInfo}: the named coll components are
 * preferred in that order, those with '^' left out.
 */
public final class Info {
    private final Map<String, String> entries = new LinkedHashMap<>();

    public Info() {
    }

    public void set(String key, String value) throws MPIException {
        if (key == null || key.isEmpty() || value == null) {
            throw new MPIException(MPI.ERR_ARG, "an info key and value must not be null or empty (key '" + key + "')");
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null. */
    public String get(String key) throws MPIException {
        return entries.get(key);
    }

    public void delete(String key) throws MPIException {
        entries.remove(key);
    }

    public int size() throws MPIException {
        return entries.size();
    }

    Map<String, String> entries() {
        return Map.copyOf(entries);
    }
}
