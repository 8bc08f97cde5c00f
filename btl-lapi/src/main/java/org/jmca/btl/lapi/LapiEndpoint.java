package org.jmca.btl.lapi;

import org.jmca.mca.btl.BtlEndpoint;
import org.jmca.mca.btl.BtlModule;

/** btl/lapi's way to one task: its task number. */
record LapiEndpoint(int rank, BtlModule module) implements BtlEndpoint {
}
