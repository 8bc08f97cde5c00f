package org.jmca.btl.gm;

import java.lang.foreign.Arena;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/** The same rules with the two nodes on "different hosts": every packet crosses the TCP wire. */
class GmWireSemanticsTest extends GmSemanticsTest {
    private static final byte[] KEY = "wire-test-key".getBytes(StandardCharsets.UTF_8);
    private GmWire wireA;
    private GmWire wireB;

    @BeforeEach
    @Override
    void open() {
        arena = Arena.ofShared();
        wireA = new GmWire(1, 2, KEY);
        wireB = new GmWire(2, 2, KEY);
        wireA.learn(2, wireB.address());
        wireB.learn(1, wireA.address());
        a = EmulatedGmPort.open(fabric, 1, 2, 2, SETTINGS, wireA);
        b = EmulatedGmPort.open(fabric, 2, 2, 2, SETTINGS, wireB);
    }

    @AfterEach
    @Override
    void close() {
        super.close();
        wireA.close();
        wireB.close();
    }
}
