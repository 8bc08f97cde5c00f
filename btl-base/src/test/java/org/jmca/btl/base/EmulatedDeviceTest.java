package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class EmulatedDeviceTest {
    @Test
    void shouldFindTheCLibraryThatEveryLinuxHas() {
        assertThat(EmulatedDevice.libraryInstalled("libc.so.6")).isTrue();
    }

    @Test
    void shouldNotFindALibraryThatNoMachineHas() {
        assertThat(EmulatedDevice.libraryInstalled("libjmca-no-such-device.so.0")).isFalse();
    }

    @Test
    void shouldNotTakeAPrefixOfAnInstalledLibraryForIt() {
        // libc.so.6 is in the linker's cache; "libc.so" alone names no file there
        assertThat(EmulatedDevice.libraryInstalled("libc.so")).isFalse();
    }
}
