package org.jmca.coll.gm;

/**
 * coll/gm's knobs, read once from its parameters.
 *
 * @param eagerLimit       largest message sent eagerly (copied into pre-registered buffers); larger ones by directed send
 * @param window           messages of a stream sent before the receiver must have acknowledged the first of them
 * @param pipelineBlock    bytes registered at a time in a directed-send transfer; 0 registers the whole buffer at once
 * @param forward          whether a broadcast forwards a segment straight from the receive buffer it arrived in
 * @param fanout           fan-out of the {@code nary} trees
 * @param smallBuffers     receive buffers of 8 KiB kept provided at each priority, and as many send buffers
 * @param largeBuffers     receive buffers for eager messages kept provided, and as many send buffers
 */
record GmSettings(long eagerLimit, int window, long pipelineBlock, boolean forward, int fanout, int sendTokens,
                  int smallBuffers, int largeBuffers, long connectTimeoutNanos) {
}
