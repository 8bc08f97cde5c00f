package org.jmca.coll.gm;

/** A communicator as coll/gm addresses it: each rank's GM node and job rank. */
record GmComm(String name, int rank, int size, int context, int[] nodes, int[] jobRanks) {
}
