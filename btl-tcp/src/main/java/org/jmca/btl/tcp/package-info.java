/**
 * {@code btl/tcp}: any two ranks over TCP with NIO: connections made on the first send (the lower
 * rank's wins when both connect at once), a job key checked on connect, frames written from the
 * caller's memory, back-pressure per peer. {@code TcpEndpoint} is one peer's
 * connection and its state machine.
 */
package org.jmca.btl.tcp;
