/**
 * JDK Flight Recorder events of the asynchronous rendezvous: who announced a rendezvous, when a
 * helper thread woke for it and took progress over, and when the message was read. Each carries
 * {@link System#nanoTime()} stamps, which ranks on one host share (CLOCK_MONOTONIC), so that the
 * events of the sender and the receiver line up. Recorded only when a recording asks for them
 * ({@code --jvm-arg -XX:StartFlightRecording=...}); otherwise each costs one check of a flag.
 */
package org.jmca.mca.trace;
