package mpi;

/** An MPI object whose resources the program gives back: communicators, groups, infos, requests, ... */
public interface Freeable {
    void free() throws MPIException;
}
