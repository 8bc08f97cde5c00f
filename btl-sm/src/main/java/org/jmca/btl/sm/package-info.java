/**
 * {@code btl/sm}: the processes of one host, through lock-free rings in mapped files (in the job's
 * session directory, else {@code /dev/shm}); large messages between direct buffers by one copy
 * ({@code process_vm_readv}). A segment's file is removed once every local peer has mapped it.
 */
package org.jmca.btl.sm;
