package org.jmca.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jmca.mca.param.ParameterException;
import org.jmca.mca.param.RawValue;
import org.jmca.mca.param.ValueSource.Kind;
import org.junit.jupiter.api.Test;

class ParameterFileTest {

    private static List<String> describe(List<RawValue> values) {
        return values.stream().map(v -> v.name() + "=" + v.text() + " @" + v.source().location()).toList();
    }

    @Test
    void shouldReadOpenMpiNameValueLinesWithTheirLineNumbers() {
        String text = """
                # Open MPI style
                btl = ^tcp

                btl_tcp_if_include = eth0, eth1   # trailing comment
                pml_ob1_name = "quoted value"
                coll_tuned_dynamic_rules_filename = /etc/rules.conf
                empty_value =
                """;
        assertThat(describe(ParameterFile.parse(text, "p.conf", Kind.USER_FILE))).containsExactly(
                "btl=^tcp @p.conf:2",
                "btl_tcp_if_include=eth0, eth1 @p.conf:4",
                "pml_ob1_name=quoted value @p.conf:5",
                "coll_tuned_dynamic_rules_filename=/etc/rules.conf @p.conf:6",
                "empty_value= @p.conf:7");
    }

    @Test
    void shouldReadHoconWithNestingListsAndLineNumbers() {
        String text = """
                # HOCON
                btl_tcp {
                  eager_limit = 64k
                }
                btl = [self, tcp]
                progress.polling.spin_count: 5
                """;
        assertThat(describe(ParameterFile.parse(text, "h.conf", Kind.TUNE_FILE))).containsExactly(
                "btl_tcp_eager_limit=64k @h.conf:3",
                "btl=self,tcp @h.conf:5",
                "progress_polling_spin_count=5 @h.conf:6");
    }

    @Test
    void aHoconListShouldReplaceAnObjectOfTheSameKeyAsHoconSays() {
        String text = """
                btl.tcp.eager_limit = 64k
                btl = [self, tcp]
                """;
        assertThat(describe(ParameterFile.parse(text, "h.conf", Kind.TUNE_FILE))).containsExactly("btl=self,tcp @h.conf:2");
    }

    @Test
    void shouldReportTheFileAndLineOfMalformedText() {
        String text = """
                btl = self
                btl_tcp_eager_limit 64k {
                """;
        assertThatThrownBy(() -> ParameterFile.parse(text, "bad.conf", Kind.USER_FILE))
                .isInstanceOf(ParameterException.class)
                .hasMessageStartingWith("user file bad.conf:")
                .hasMessageContaining("Open MPI's 'name = value' lines, or HOCON");
        assertThatThrownBy(() -> ParameterFile.parse("a {\n  b = 1\n", "open.conf", Kind.TUNE_FILE))
                .hasMessageStartingWith("--tune file open.conf:");
    }

    @Test
    void shouldRejectANullValue() {
        assertThatThrownBy(() -> ParameterFile.parse("a { b = null }\nc = [1]", "n.conf", Kind.USER_FILE))
                .hasMessageContaining("n.conf:1: a_b is null");
    }
}
