package org.jmca.runtime;

/** MPI's predefined operations, in the order of Open MPI's Java bindings' constants. */
public enum PredefinedOp { MAX, MIN, SUM, PROD, LAND, BAND, LOR, BOR, LXOR, BXOR, MINLOC, MAXLOC, REPLACE, NO_OP }
