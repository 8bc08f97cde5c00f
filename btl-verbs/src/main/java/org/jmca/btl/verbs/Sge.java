package org.jmca.btl.verbs;

/** {@code struct ibv_sge}: {@code length} bytes at {@code address}, inside the memory region of {@code lkey}. */
public record Sge(long address, int length, int lkey) {
}
