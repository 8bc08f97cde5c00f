package org.jmca.btl.gm;

import org.jmca.mca.btl.BtlProperties;

/** btl/gm's settings, checked: what a module and its port are made with. */
record GmSettings(BtlProperties properties, int smallBuffers, int largeBuffers, boolean registrationCache,
                  long registrationCacheBytes, long pipelineBlock) {
    /** The largest fragment: below 16 MiB, GM's largest size class (checked by the component). */
    int maxSendSize() {
        return (int) properties.maxSendSize();
    }
}
