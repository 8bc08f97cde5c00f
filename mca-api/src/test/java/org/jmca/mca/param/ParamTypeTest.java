package org.jmca.mca.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.constraints.LongRange;
import org.junit.jupiter.api.Test;

class ParamTypeTest {

    enum Colour implements ParamType.Numbered {
        RED(1), GREEN(7);

        private final int number;

        Colour(int number) {
            this.number = number;
        }

        @Override
        public int number() {
            return number;
        }
    }

    enum Plain { FIRST, SECOND }

    @Test
    void shouldReadSizesWithSuffixesAsPowersOf1024() {
        assertThat(ParamType.SIZE.parse("4096")).isEqualTo(4096L);
        assertThat(ParamType.SIZE.parse("64k")).isEqualTo(65_536L);
        assertThat(ParamType.SIZE.parse(" 64K ")).isEqualTo(65_536L);
        assertThat(ParamType.SIZE.parse("1m")).isEqualTo(1L << 20);
        assertThat(ParamType.SIZE.parse("2g")).isEqualTo(2L << 30);
        assertThat(ParamType.SIZE.parse("1MB")).isEqualTo(1L << 20);
        assertThat(ParamType.SIZE.format(65_536L)).isEqualTo("64k");
        assertThat(ParamType.SIZE.format(1000L)).isEqualTo("1000");
    }

    @Test
    void shouldRejectBadSizesNamingTheTextAndTheExpectedForm() {
        for (String bad : List.of("abc", "-1k", "1.5m", "", "k", "9000000000000000t")) {
            assertThatThrownBy(() -> ParamType.SIZE.parse(bad))
                    .isInstanceOf(IllegalArgumentException.class)
                    .hasMessageContaining("'" + bad + "' is not a byte count");
        }
    }

    @Property
    void sizeFormatReadsBack(@ForAll @LongRange(min = 0, max = 1L << 50) long bytes) {
        assertThat(ParamType.SIZE.parse(ParamType.SIZE.format(bytes))).isEqualTo(bytes);
    }

    @Test
    void shouldReadBooleansTheWayOpenMpiDoes() {
        for (String yes : List.of("true", "1", "yes", "ON", "enabled")) {
            assertThat(ParamType.BOOL.parse(yes)).as(yes).isTrue();
        }
        for (String no : List.of("false", "0", "no", "Off", "disabled")) {
            assertThat(ParamType.BOOL.parse(no)).as(no).isFalse();
        }
        assertThatThrownBy(() -> ParamType.BOOL.parse("maybe")).hasMessageContaining("'maybe' is not a boolean");
    }

    @Test
    void shouldReadEnumsByNameOrNumber() {
        ParamType<Colour> numbered = ParamType.enumOf(Colour.class);
        assertThat(numbered.parse("green")).isEqualTo(Colour.GREEN);
        assertThat(numbered.parse("7")).isEqualTo(Colour.GREEN);
        assertThat(numbered.parse("RED")).isEqualTo(Colour.RED);
        assertThatThrownBy(() -> numbered.parse("0")).hasMessageContaining("one of 1:red, 7:green");

        ParamType<Plain> plain = ParamType.enumOf(Plain.class);
        assertThat(plain.parse("1")).isEqualTo(Plain.SECOND);
        assertThat(plain.enumerators()).extracting(ParamType.Enumerator::toString).containsExactly("0:first", "1:second");
    }

    @Test
    void shouldReadNumbersListsAndRejectNonFiniteDoubles() {
        assertThat(ParamType.INT.parse(" -12 ")).isEqualTo(-12);
        assertThat(ParamType.LONG.parse("12345678901")).isEqualTo(12_345_678_901L);
        assertThat(ParamType.DOUBLE.parse("0.25")).isEqualTo(0.25);
        assertThat(ParamType.LIST.parse(" self, sm ,,tcp")).containsExactly("self", "sm", "tcp");
        assertThatThrownBy(() -> ParamType.INT.parse("3000000000")).hasMessageContaining("is not an integer");
        assertThatThrownBy(() -> ParamType.DOUBLE.parse("NaN")).hasMessageContaining("is not a number");
    }
}
