package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzes the shared-memory files a rank maps from /dev/shm (btl/sm's segment, the emulated
 * devices' ports), which another process of the user may have corrupted or cut short: a valid
 * file with header bytes changed (magic, pid, ring count, ring capacity, a ring's head), cut at
 * any length, or random bytes. Opening it gives a file whose every ring can be read, or an
 * IllegalStateException naming the path; reading its rings hands over only records inside the
 * ring, or says the ring is corrupt. Nothing reads outside the mapping, nothing else is thrown.
 */
class RingFileFuzzTest {
    private static final long MAGIC = 0x4a4d43412d46555aL;
    private static final RingFile.Kind KIND = new RingFile.Kind("test", "fuzzed file", MAGIC, 40,
            RingFile.Creation.NEW);
    private static final int RINGS = 3;
    private static final int CAPACITY = 1024;

    record Damage(int kind, int offset, long value, int cut, byte[] random) {
        @Override
        public String toString() {
            return switch (kind) {
                case 0 -> "8 bytes at " + offset + " = " + value;
                case 1 -> "4 bytes at " + offset + " = " + (int) value;
                case 2 -> "cut to " + cut + " bytes";
                default -> random.length + " random bytes";
            };
        }
    }

    @Provide
    Arbitrary<Damage> damages() {
        long fileBytes = KIND.bytesFor(RINGS, CAPACITY);
        // the header's words, and each ring's head and first records
        Arbitrary<Integer> offset = Arbitraries.oneOf(Arbitraries.integers().between(0, 39),
                Arbitraries.integers().between(0, RINGS - 1).map(r -> (int) (KIND.ringsAt()
                        + r * SharedRing.bytesFor(CAPACITY) + 128)),
                Arbitraries.integers().between(0, (int) fileBytes - 8));
        Arbitrary<Long> value = Arbitraries.oneOf(Arbitraries.longs(), Arbitraries.of(0L, -1L, 1L << 31, 1L << 40,
                (long) Integer.MAX_VALUE, 2048L, 4096L, 1000L));
        return Combinators.combine(Arbitraries.integers().between(0, 3), offset, value,
                Arbitraries.integers().between(0, (int) fileBytes + 64),
                Arbitraries.bytes().array(byte[].class).ofMaxSize(512)).as(Damage::new);
    }

    @Property(tries = 300)
    void aDamagedFileIsRefusedNamingItOrReadWithinItsRings(@ForAll("damages") Damage damage) throws IOException {
        Path dir = Files.createTempDirectory("ringfile");
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = RingFile.create(path, KIND, RINGS, CAPACITY, fresh -> { }, arena);
            MemorySegment payload = MemorySegment.ofArray(new byte[40]);
            for (int r = 0; r < RINGS; r++) {
                owner.ring(r).offer((byte) 3, payload, payload);
            }
            damage(path, damage);
            RingFile read;
            try {
                read = RingFile.open(path, KIND, arena);
            } catch (IllegalStateException refused) {
                assertThat(refused.getMessage()).contains(path.toString());
                return;
            }
            assertThat(read).isNotNull();
            for (int r = 0; r < read.rings(); r++) {
                long start = read.memory().address();
                long end = start + read.memory().byteSize();
                try {
                    read.ring(r).poll((tag, data, at, length) -> assertThat(at).as("a record inside the mapping")
                            .isBetween(start, end - length));
                } catch (IllegalStateException corrupt) {
                    assertThat(corrupt.getMessage()).contains("corrupt ring");
                }
            }
        } finally {
            Files.deleteIfExists(path);
            Files.delete(dir);
        }
    }

    private static void damage(Path path, Damage damage) throws IOException {
        try (FileChannel file = FileChannel.open(path, StandardOpenOption.WRITE)) {
            switch (damage.kind()) {
                case 0 -> file.write(ByteBuffer.allocate(8).order(java.nio.ByteOrder.nativeOrder())
                        .putLong(0, damage.value()), damage.offset());
                case 1 -> file.write(ByteBuffer.allocate(4).order(java.nio.ByteOrder.nativeOrder())
                        .putInt(0, (int) damage.value()), damage.offset());
                case 2 -> file.truncate(Math.min(damage.cut(), file.size()));
                default -> {
                    file.truncate(0);
                    file.write(ByteBuffer.wrap(damage.random()));
                }
            }
        }
    }
}
