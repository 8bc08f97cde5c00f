package mpi;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Hints as key-value pairs, as MPI_Info. JMCA reads {@code ompi_comm_coll_preference} ("a,b,^c")
 * when a communicator is made with {@link Intracomm#dupWithInfo}: the named coll components are
 * preferred in that order, those with '^' left out. {@link MPI#INFO_NULL} is no info at all;
 * {@link MPI#INFO_ENV} describes how the job was started.
 */
public final class Info implements Freeable, Cloneable {
    private final Map<String, String> entries = new LinkedHashMap<>();
    private boolean isNull;

    public Info() throws MPIException {
    }

    /** MPI.INFO_NULL. */
    static Info nullInfo() {
        Info info = new Info(Map.of());
        info.isNull = true;
        return info;
    }

    /** An info with these entries (MPI.INFO_ENV). */
    Info(Map<String, String> entries) {
        this.entries.putAll(entries);
    }

    public void set(String key, String value) throws MPIException {
        live("set");
        if (key == null || key.isEmpty() || value == null) {
            throw new MPIException(MPI.ERR_INFO_KEY, "an info key and value must not be null or empty (key '" + key
                    + "')");
        }
        if (key.length() > MPI.MAX_INFO_KEY || value.length() > MPI.MAX_INFO_VAL) {
            throw new MPIException(key.length() > MPI.MAX_INFO_KEY ? MPI.ERR_INFO_KEY : MPI.ERR_INFO_VALUE,
                    "info key '" + key + "' or its value is longer than MPI.MAX_INFO_KEY (" + MPI.MAX_INFO_KEY
                            + ") or MPI.MAX_INFO_VAL (" + MPI.MAX_INFO_VAL + ")");
        }
        entries.put(key, value);
    }

    /** The value of {@code key}, or null. */
    public String get(String key) throws MPIException {
        return live("get").entries.get(key);
    }

    /** Removes {@code key}; MPI.ERR_INFO_NOKEY if it is not there. */
    public void delete(String key) throws MPIException {
        if (live("delete").entries.remove(key) == null) {
            throw new MPIException(MPI.ERR_INFO_NOKEY, "info key '" + key + "' is not set");
        }
    }

    public int size() throws MPIException {
        return live("size").entries.size();
    }

    /** The {@code n}-th key, in the order the keys were set. */
    public String getKey(int n) throws MPIException {
        List<String> keys = new ArrayList<>(live("getKey").entries.keySet());
        if (n < 0 || n >= keys.size()) {
            throw new MPIException(MPI.ERR_ARG, "info key number " + n + " of " + keys.size());
        }
        return keys.get(n);
    }

    /** A new info with the same entries. */
    public Info dup() throws MPIException {
        return new Info(live("dup").entries);
    }

    @Override
    public Info clone() {
        return new Info(entries);
    }

    /** The info is given back: it becomes null, as its handle becomes MPI_INFO_NULL. */
    @Override
    public void free() throws MPIException {
        live("free");
        if (this == MPI.INFO_ENV) {
            throw new MPIException(MPI.ERR_INFO, "the predefined MPI.INFO_ENV cannot be freed");
        }
        entries.clear();
        isNull = true;
    }

    public boolean isNull() {
        return isNull;
    }

    /** Init fills MPI.INFO_ENV. */
    void replaceAll(Map<String, String> values) {
        entries.clear();
        entries.putAll(values);
    }

    Map<String, String> entries() {
        return Map.copyOf(entries);
    }

    private Info live(String operation) throws MPIException {
        if (isNull) {
            throw new MPIException(MPI.ERR_INFO, "MPI_Info_" + operation + " on a null or freed info");
        }
        return this;
    }
}
