package org.jmca.mca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jmca.mca.param.ValueSource;
import org.jmca.mca.param.ValueSource.Kind;
import org.junit.jupiter.api.Test;

class ComponentFilterTest {
    private static final List<String> KNOWN = List.of("self", "sm", "tcp");
    private static final ValueSource CLI = new ValueSource(Kind.COMMAND_LINE, "--mca btl");

    private static ComponentFilter parse(String text) {
        return ComponentFilter.parse(Framework.BTL, text, CLI, KNOWN);
    }

    @Test
    void shouldAdmitEveryComponentWhenTheListIsEmpty() {
        ComponentFilter filter = parse(" ");
        assertThat(KNOWN).allMatch(filter::admits);
    }

    @Test
    void shouldAdmitOnlyTheListedComponentsInIncludeMode() {
        ComponentFilter filter = parse("self, tcp");
        assertThat(filter.admits("self")).isTrue();
        assertThat(filter.admits("tcp")).isTrue();
        assertThat(filter.admits("sm")).isFalse();
        assertThat(filter.whyNotAdmitted()).isEqualTo("not listed in btl=self, tcp (command line --mca btl)");
    }

    @Test
    void shouldAdmitAllButTheListedComponentsInExcludeMode() {
        ComponentFilter filter = parse("^tcp,sm");
        assertThat(filter.admits("self")).isTrue();
        assertThat(filter.admits("tcp")).isFalse();
        assertThat(filter.admits("sm")).isFalse();
        assertThat(filter.whyNotAdmitted()).startsWith("excluded by btl=^tcp,sm");
    }

    @Test
    void shouldRejectACaretAnywhereButTheStartEvenBeforeCheckingNames() {
        assertThatThrownBy(() -> parse("self,^tcp"))
                .isInstanceOf(McaException.class)
                .hasMessageContaining("btl=self,^tcp (command line --mca btl)")
                .hasMessageContaining("'^' may stand only at the start");
        assertThatThrownBy(() -> parse("nosuch,^tcp")).hasMessageContaining("'^' may stand only at the start");
        assertThatThrownBy(() -> parse("^self,^tcp")).hasMessageContaining("'^' may stand only at the start");
    }

    @Test
    void shouldRejectAnUnknownNameListingTheComponentsThatExist() {
        assertThatThrownBy(() -> parse("nonexistent"))
                .hasMessage("btl=nonexistent (command line --mca btl): framework btl has no component named"
                        + " 'nonexistent'; available btl components: self, sm, tcp");
        assertThatThrownBy(() -> ComponentFilter.parse(Framework.BTL, "^nonexistent",
                        new ValueSource(Kind.ENVIRONMENT, "JMCA_MCA_btl"), KNOWN))
                .hasMessageContaining("environment JMCA_MCA_btl")
                .hasMessageContaining("available btl components: self, sm, tcp");
        assertThatThrownBy(() -> ComponentFilter.parse(Framework.PML, "ob1", CLI, List.of()))
                .hasMessageContaining("no pml components were found on the class path");
    }

    @Test
    void shouldRejectAnEmptyNameInTheList() {
        assertThatThrownBy(() -> parse("self,,tcp")).hasMessageContaining("empty component name");
    }
}
