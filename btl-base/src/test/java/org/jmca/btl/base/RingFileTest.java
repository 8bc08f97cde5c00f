package org.jmca.btl.base;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The layout drawn in {@link RingFile}'s javadoc, read back byte by byte, and its removal count. */
class RingFileTest {
    private static final long MAGIC = 0x4a4d43412d545354L;
    private static final int CAPACITY = 4096;
    /** A kind with an int of its own at 32 and a long at 64: its rings start at 128. */
    private static final RingFile.Kind KIND = new RingFile.Kind("test", "ring file", MAGIC, 72, RingFile.Creation.NEW);
    private static final long RING_BYTES = 256 + CAPACITY;

    @TempDir
    Path dir;

    private static ByteBuffer bytesOf(Path file) throws IOException {
        return ByteBuffer.wrap(Files.readAllBytes(file)).order(ByteOrder.nativeOrder());
    }

    private static RingFile create(Path path, RingFile.Kind kind, Arena arena) {
        return RingFile.create(path, kind, 3, CAPACITY, fresh -> {
            fresh.memory().set(ValueLayout.JAVA_INT, 32, 0x1234);
            fresh.memory().set(ValueLayout.JAVA_LONG, 64, -7L);
        }, arena);
    }

    @Test
    void theHeaderTheKindsFieldsAndEachRingLieWhereTheLayoutSays() throws IOException {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = create(path, KIND, arena);
            RingFile peer = RingFile.open(path, KIND, arena);
            MemorySegment header = MemorySegment.ofArray(new byte[8]);
            assertThat(peer.ring(1).offer((byte) 5, header, MemorySegment.ofArray(new byte[3]))).isTrue();

            ByteBuffer file = bytesOf(path);
            assertThat(file.capacity()).isEqualTo(128 + 3 * RING_BYTES);
            assertThat(file.getLong(0)).as("magic").isEqualTo(MAGIC);
            assertThat(file.getLong(8)).as("owner's pid").isEqualTo(ProcessHandle.current().pid());
            assertThat(file.getInt(16)).as("rings").isEqualTo(3);
            assertThat(file.getInt(20)).as("ring capacity").isEqualTo(CAPACITY);
            assertThat(file.getInt(24)).as("open").isZero();
            assertThat(file.getInt(28)).as("mappings to come").isZero();
            assertThat(file.getInt(32)).as("the kind's int").isEqualTo(0x1234);
            assertThat(file.getLong(64)).as("the kind's long").isEqualTo(-7L);
            long ring1Data = 128 + RING_BYTES + SharedRing.DATA_OFFSET;
            assertThat(file.getLong((int) ring1Data)).as("ring 1's first stamp: position 0 + 1").isEqualTo(1);
            assertThat(file.getLong((int) ring1Data + 8)).as("its length and tag").isEqualTo(16 + 8 + 3 | 5L << 32);
            assertThat(file.getLong((int) (128 + SharedRing.DATA_OFFSET))).as("ring 0 is untouched").isZero();
            assertThat(file.getLong((int) (128 + 2 * RING_BYTES + SharedRing.DATA_OFFSET))).as("ring 2 is untouched")
                    .isZero();

            assertThat(peer.ownerPid()).isEqualTo(ProcessHandle.current().pid());
            assertThat(peer.rings()).isEqualTo(3);
            assertThat(peer.ringCapacity()).isEqualTo(CAPACITY);
            List<Integer> lengths = new ArrayList<>();
            assertThat(owner.ring(0).poll((tag, data, offset, length) -> lengths.add(-1))).isZero();
            assertThat(owner.ring(1).poll((tag, data, offset, length) -> lengths.add((int) length))).isEqualTo(1);
            assertThat(owner.ring(2).poll((tag, data, offset, length) -> lengths.add(-1))).isZero();
            assertThat(lengths).containsExactly(11);
            assertThatThrownBy(() -> owner.ring(3)).isInstanceOf(IndexOutOfBoundsException.class);
        }
    }

    @Test
    void ringsStartOnTheFirst128BytesAfterTheKindsFields() {
        assertThat(new RingFile.Kind("test", "ring file", MAGIC, 32, RingFile.Creation.NEW).ringsAt()).isEqualTo(128);
        assertThat(new RingFile.Kind("test", "ring file", MAGIC, 128, RingFile.Creation.NEW).ringsAt()).isEqualTo(128);
        assertThat(new RingFile.Kind("test", "ring file", MAGIC, 129, RingFile.Creation.NEW).ringsAt()).isEqualTo(256);
        assertThat(KIND.bytesFor(2, CAPACITY)).isEqualTo(128 + 2 * RING_BYTES);
        assertThatThrownBy(() -> new RingFile.Kind("test", "ring file", MAGIC, 31, RingFile.Creation.NEW))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("headerBytes=31");
    }

    @Test
    void theMagicIsWrittenLastSoAPeerNeverMapsAHalfMadeFile() {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile.create(path, KIND, 1, CAPACITY, fresh -> {
                assertThat(fresh.memory().get(ValueLayout.JAVA_LONG, 0)).isZero();
                assertThatThrownBy(() -> RingFile.open(path, KIND, arena)).isInstanceOf(IllegalStateException.class)
                        .hasMessageContaining("is not a ring file").hasMessageContaining("magic=0x0");
            }, arena);
            assertThat(RingFile.open(path, KIND, arena)).isNotNull();
        }
    }

    @Test
    void aRenamedFileAppearsOnlyWhole() throws IOException {
        RingFile.Kind renamed = new RingFile.Kind("test", "ring file", MAGIC, 72, RingFile.Creation.RENAMED);
        Path path = dir.resolve("file");
        Path temporary = dir.resolve("file.new");
        try (Arena arena = Arena.ofShared()) {
            RingFile file = RingFile.create(path, renamed, 1, CAPACITY, fresh -> {
                assertThat(path).doesNotExist();
                assertThat(temporary).exists();
            }, arena);
            assertThat(temporary).doesNotExist();
            assertThat(file.path()).isEqualTo(path);
            assertThat(bytesOf(path).getLong(0)).isEqualTo(MAGIC);
        }
    }

    @Test
    void aNewFileIsTheUsersAloneAndDoesNotReplaceOneThatExistsUnlessItsKindSaysSo() throws IOException {
        Path path = dir.resolve("file");
        Files.write(path, new byte[10]);
        try (Arena arena = Arena.ofShared()) {
            assertThatThrownBy(() -> create(path, KIND, arena)).isInstanceOf(UncheckedIOException.class)
                    .hasCauseInstanceOf(FileAlreadyExistsException.class)
                    .hasMessageContaining("test: cannot create the ring file");
            RingFile.Kind replacing = new RingFile.Kind("test", "ring file", MAGIC, 72, RingFile.Creation.REPLACING);
            create(path, replacing, arena);
            assertThat(Files.size(path)).isEqualTo(128 + 3 * RING_BYTES);
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(path))).isEqualTo("rw-------");
        }
    }

    @Test
    void aFileOfAnotherKindOrCutShortIsRefusedAndAMissingOneIsNull() throws IOException {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            create(path, KIND, arena);
            RingFile.Kind other = new RingFile.Kind("other", "port file", MAGIC + 1, 72, RingFile.Creation.NEW);
            assertThatThrownBy(() -> RingFile.open(path, other, arena)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("other: " + path + " is not a port file: magic=0x");
        }
        try (FileChannel channel = FileChannel.open(path, StandardOpenOption.WRITE)) {
            channel.truncate(128 + 2 * RING_BYTES);
        }
        try (Arena arena = Arena.ofShared()) {
            assertThatThrownBy(() -> RingFile.open(path, KIND, arena)).isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("rings=3 of ringCapacity=4096 need " + (128 + 3 * RING_BYTES) + " bytes");
            assertThat(RingFile.open(dir.resolve("none"), KIND, arena)).isNull();
        }
    }

    @Test
    void theOpenFlagIsSeenThroughAnotherMapping() {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = create(path, KIND, arena);
            RingFile peer = RingFile.open(path, KIND, arena);
            assertThat(peer.isOpen()).isFalse();
            owner.setOpen(true);
            assertThat(peer.isOpen()).isTrue();
            owner.setOpen(false);
            assertThat(peer.isOpen()).isFalse();
        }
    }

    @Test
    void theLastPeerToMapTheFileRemovesItWhenTheOwnerKnewItsPeersFirst() throws IOException {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = create(path, KIND, arena);
            assertThat(owner.expectPeers(2)).isFalse();
            assertThat(bytesOf(path).getInt(28)).as("mappings to come").isEqualTo(-2);
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).isFalse();
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).isTrue();
        }
    }

    @Test
    void theOwnerRemovesTheFileWhenEveryPeerMappedItBeforeItKnewThem() throws IOException {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = create(path, KIND, arena);
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).isFalse();
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).isFalse();
            assertThat(bytesOf(path).getInt(28)).as("mappings to come").isEqualTo(2);
            assertThat(owner.expectPeers(2)).isTrue();
        }
    }

    @Test
    void theOwnerOfAFileNoPeerMapsRemovesItAtOnce() {
        try (Arena arena = Arena.ofShared()) {
            assertThat(create(dir.resolve("file"), KIND, arena).expectPeers(0)).isTrue();
        }
    }

    @Test
    void aPeerThatWasNotExpectedDoesNotTakeTheRemovalFromTheLastThatWas() {
        Path path = dir.resolve("file");
        try (Arena arena = Arena.ofShared()) {
            RingFile owner = create(path, KIND, arena);
            assertThat(owner.expectPeers(1)).isFalse();
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).isTrue();
            assertThat(RingFile.open(path, KIND, arena).mappedByPeer()).as("past zero: removed already").isFalse();
        }
    }
}
