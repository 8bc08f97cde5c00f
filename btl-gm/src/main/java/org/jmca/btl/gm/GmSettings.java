package org.jmca.btl.gm;

/** btl/gm's settings, checked: what a module and its port are made with. */
record GmSettings(long eagerLimit, int maxSendSize, int smallBuffers, int largeBuffers, boolean registrationCache,
                  long registrationCacheBytes, long pipelineBlock) {
}
