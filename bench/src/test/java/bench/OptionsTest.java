package bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class OptionsTest {

    @Test
    void readsOsuOptions() {
        Options o = Options.parse(new String[] {"-m", "8:1024", "-i", "500", "-x", "50", "-W", "16", "-b", "direct"},
                1 << 22, 10_000, 1_000);
        assertThat(o).isEqualTo(new Options(8, 1024, 500, 50, 16, true));
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
        assertThatThrownBy(() -> Options.parse(new String[] {"-b", "heap"}, 1, 1, 1)).hasMessageContaining("array or direct");
        assertThatThrownBy(() -> Options.parse(new String[] {"-m", "64:8"}, 1, 1, 1)).hasMessageContaining("not a valid");
        assertThatThrownBy(() -> Options.parse(new String[] {"-i"}, 1, 1, 1)).hasMessageContaining("-i needs a value");
    }
}
