package org.jmca.btl.verbs;

/** {@code struct ibv_mr}: registered memory and its keys. */
public record MemoryRegion(long address, long length, int lkey, int rkey, int access) {
    public boolean covers(long from, long bytes) {
        return from >= address && bytes >= 0 && from + bytes <= address + length;
    }

    /** The whole region as one scatter/gather element. */
    public Sge sge(long from, int bytes) {
        return new Sge(from, bytes, lkey);
    }
}
