package org.jmca.mca.coll;

import java.util.Set;

/** A collective module serving one communicator. Its operations arrive with the coll framework. */
public interface CollModule {

    /** The functions this module provides; the others stay with lower-priority modules. */
    Set<CollFunction> provides();
}
