package org.jmca.btl.lapi;

/** The same semantics with every task reached over the TCP wire, as tasks on other hosts are. */
class LapiWireSemanticsTest extends LapiSemanticsTest {
    @Override
    LapiSettings.Wire wire() {
        return LapiSettings.Wire.SOCKET;
    }
}
