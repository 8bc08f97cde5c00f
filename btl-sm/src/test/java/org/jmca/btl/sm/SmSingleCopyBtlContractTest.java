package org.jmca.btl.sm;

/**
 * The BTL contract, and btl/sm's own tests, with single copy on for every size: where the kernel
 * lets this process read its own memory with process_vm_readv the modules offer GET, and the
 * contract's get runs; elsewhere it is skipped, saying that GET is not offered.
 */
class SmSingleCopyBtlContractTest extends SmBtlContractTest {

    @Override
    protected long singleCopyMin() {
        return 1;
    }
}
