/**
 * {@code btl/verbs}: InfiniBand verbs behind a Java {@code Verbs} interface, rdma-core's
 * libibverbs bound through {@code java.lang.foreign} or the software device ({@code
 * btl_verbs_device soft}). RC connections on demand over a UD connection manager ({@code
 * ConnectionManager}), ACTS tear-down at {@code btl_verbs_max_conn} ({@code ConnectionTable}),
 * eager sends with credits, RGET and RPUT with pipelined registration and a registration cache.
 */
package org.jmca.btl.verbs;
