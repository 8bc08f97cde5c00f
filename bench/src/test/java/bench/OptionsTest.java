package bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void readsOsuOptions() {
        Options o = Options.parse(new String[] {"-m", "8:1024", "-i", "500", "-x", "50", "-W", "16", "-b", "direct"},
                1 << 22, 10_000, 1_000);
        assertThat(o).isEqualTo(new Options(8, 1024, 500, 50, 16, true));
    }

    @Test
    void arrayToDirectGivesTheSenderAnArrayAndTheReceiverADirectBuffer() {
        Options o = Options.parse(new String[] {"-b", "array-to-direct"}, 1 << 22, 10_000, 1_000);
        assertThat(o.direct()).isFalse();
        assertThat(o.receiverDirect()).isTrue();
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> Options.parse(new String[] {"-b", "mixed"}, 8, 1, 0))
                .hasMessageContaining("-b mixed: the buffer kind is array, direct or array-to-direct");
    }

    @Test
    void aSingleSizeIsTheMaximumAndDefaultsFillTheRest() {
        Options o = Options.parse(new String[] {"-m", "4096"}, 1 << 22, 10_000, 1_000);
        assertThat(o).isEqualTo(new Options(0, 4096, 10_000, 1_000, 64, false));
    }

    @Test
    void walksSizesAsOsuDoes() {
        Options o = Options.parse(new String[0], 8, 1, 0);
        long size = 0;
        StringBuilder sizes = new StringBuilder();
        for (; size <= o.maxSize(); size = o.next(size)) {
            sizes.append(size).append(' ');
        }
        assertThat(sizes.toString()).isEqualTo("0 1 2 4 8 ");
    }

    @Test
    void rejectsWhatItCannotRead() {
        assertThatThrownBy(() -> Options.parse(new String[] {"-q"}, 1, 1, 1)).hasMessageContaining("unknown option -q");
        assertThatThrownBy(() -> Options.parse(new String[] {"-b", "heap"}, 1, 1, 1)).hasMessageContaining("array, direct or array-to-direct");
        assertThatThrownBy(() -> Options.parse(new String[] {"-m", "64:8"}, 1, 1, 1)).hasMessageContaining("not a valid");
        assertThatThrownBy(() -> Options.parse(new String[] {"-i"}, 1, 1, 1)).hasMessageContaining("-i needs a value");
    }

    @Test
    void fullStatisticsIsAFlagAndTheRestKeepsItsValue() {
        Options o = Options.parse(new String[] {"-f", "-m", "4:64", "-b", "direct"}, Options.Defaults.COLLECTIVE);
        assertThat(o.full()).isTrue();
        assertThat(o).isEqualTo(new Options(4, 64, 1000, 200, 64, true, true, 100, 10, false, true));
        assertThat(Options.parse(new String[0], Options.Defaults.COLLECTIVE).full()).isFalse();
    }

    @Test
    void extendedJitWarmupIsOnlyOnRequest() {
        assertThat(Options.parse(new String[0], Options.Defaults.COLLECTIVE).jitWarmup()).isFalse();
        assertThat(Options.parse(new String[] {"-J", "-m", "8:8"}, Options.Defaults.COLLECTIVE))
                .isEqualTo(new Options(8, 8, 1000, 200, 64, false, false, 100, 10, true, false));
    }

    @Test
    void collectiveDefaultsAreOsus() {
        Options o = Options.parse(new String[0], Options.Defaults.COLLECTIVE);
        assertThat(o).isEqualTo(new Options(1, 1 << 20, 1000, 200, 64, false, false, 100, 10, false, false));
        assertThat(o.iterations(8192)).isEqualTo(1000);
        assertThat(o.warmup(8192)).isEqualTo(200);
        assertThat(o.iterations(8193)).isEqualTo(100);
        assertThat(o.warmup(16384)).isEqualTo(10);
    }

    @Test
    void iterationsAndWarmupGivenApplyToEverySizeAsInOsu() {
        Options o = Options.parse(new String[] {"-i", "20", "-x", "5"}, Options.Defaults.COLLECTIVE);
        assertThat(o.iterations(4)).isEqualTo(20);
        assertThat(o.iterations(1 << 20)).isEqualTo(20);
        assertThat(o.warmup(4)).isEqualTo(5);
        assertThat(o.warmup(1 << 20)).isEqualTo(5);
    }

    @Test
    void thePointToPointFormKeepsOneCountForEverySize() {
        Options o = Options.parse(new String[] {"-i", "7"}, 1 << 22, 100, 10);
        assertThat(o.iterations(1 << 22)).isEqualTo(7);
        assertThat(o.warmup(1 << 22)).isEqualTo(10);
        assertThat(o.full()).isFalse();
    }

    @Test
    void byteSizesStartAtOneAndDouble() {
        assertThat(Options.parse(new String[] {"-m", "0:16"}, Options.Defaults.COLLECTIVE).sizes(1))
                .containsExactly(1, 2, 4, 8, 16);
        assertThat(Options.parse(new String[] {"-m", "1024"}, Options.Defaults.COLLECTIVE).sizes(1))
                .hasSize(11).startsWith(1L).endsWith(1024L);
    }

    @Test
    void floatSizesLeaveOutWhatHoldsNoWholeFloatAsOsuDoes() {
        assertThat(Options.parse(new String[] {"-m", "1:64"}, Options.Defaults.COLLECTIVE).sizes(4))
                .containsExactly(4, 8, 16, 32, 64);
        assertThat(Options.parse(new String[] {"-m", "6:48"}, Options.Defaults.COLLECTIVE).sizes(4))
                .containsExactly(6, 12, 24, 48);
        assertThat(Options.parse(new String[] {"-m", "2"}, Options.Defaults.COLLECTIVE).sizes(4)).isEmpty();
    }

    @Test
    void overlapWalksOneKibToFourMib() {
        long[] sizes = Options.parse(new String[0], Overlap.DEFAULTS).sizes(1);
        assertThat(sizes).startsWith(1024L).endsWith(4L << 20).hasSize(13);
    }

    @Test
    void buffersHonourTheKind() {
        Options array = Options.parse(new String[] {"-b", "array"}, Options.Defaults.COLLECTIVE);
        Options direct = Options.parse(new String[] {"-b", "direct"}, Options.Defaults.COLLECTIVE);
        assertThat(array.buffer(8)).isInstanceOf(byte[].class);
        assertThat(array.byteBuffer(8).hasArray()).isTrue();
        assertThat(array.floats(3)).isEqualTo(new float[] {1f, 1f, 1f});
        assertThat(direct.byteBuffer(8).isDirect()).isTrue();
        assertThat(direct.byteBuffer(8).order()).isEqualTo(ByteOrder.nativeOrder());
        ByteBuffer floats = (ByteBuffer) direct.floats(3);
        assertThat(floats.isDirect()).isTrue();
        assertThat(floats.capacity()).isEqualTo(12);
        assertThat(floats.getFloat(8)).isEqualTo(1f);
    }

    @Test
    void rejectsBadNumbersAndCounts() {
        assertThatThrownBy(() -> Options.parse(new String[] {"-i", "ten"}, 1, 1, 1)).hasMessageContaining("-i ten");
        assertThatThrownBy(() -> Options.parse(new String[] {"-i", "0"}, Options.Defaults.COLLECTIVE))
                .hasMessageContaining("not a valid");
        assertThatThrownBy(() -> Options.parse(new String[] {"-W", "0"}, 1, 1, 1)).hasMessageContaining("not a valid");
        assertThatThrownBy(() -> Options.parse(new String[] {"-f", "x"}, 1, 1, 1)).hasMessageContaining("unknown option x");
    }
}
