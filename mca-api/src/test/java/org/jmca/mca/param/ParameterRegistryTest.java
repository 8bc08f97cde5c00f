package org.jmca.mca.param;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.jmca.mca.param.ValueSource.Kind;
import org.junit.jupiter.api.Test;

class ParameterRegistryTest {

    private static final ParameterSpec<Long> EAGER = ParameterSpec.builder("btl_tcp_eager_limit", ParamType.SIZE, 65_536L)
            .help("Largest eager message.").level(4).synonyms("btl_tcp_old_eager").build();

    private static RawValue raw(String name, String text, Kind kind, String where) {
        return new RawValue(name, text, new ValueSource(kind, where));
    }

    @Test
    void shouldTakeTheDefaultWhenNoSourceSetsTheParameter() {
        Param<Long> param = ParameterRegistry.withDefaultsOnly().register(EAGER);
        assertThat(param.get()).isEqualTo(65_536L);
        assertThat(param.source()).isEqualTo(ValueSource.DEFAULT);
        assertThat(param.formatted()).isEqualTo("64k");
    }

    @Test
    void shouldLetTheLastSettingWinAndRememberItsSource() {
        ParameterRegistry registry = new ParameterRegistry(List.of(
                raw("btl_tcp_eager_limit", "8k", Kind.USER_FILE, "/home/u/.jmca/mca-params.conf:3"),
                raw("btl_tcp_eager_limit", "16k", Kind.ENVIRONMENT, "JMCA_MCA_btl_tcp_eager_limit")));
        Param<Long> param = registry.register(EAGER);
        assertThat(param.get()).isEqualTo(16_384L);
        assertThat(param.source().toString()).isEqualTo("environment JMCA_MCA_btl_tcp_eager_limit");
    }

    @Test
    void shouldFailOnAWrongTypeNamingParameterTextSourceAndType() {
        ParameterRegistry registry = new ParameterRegistry(List.of(
                raw("btl_tcp_eager_limit", "lots", Kind.TUNE_FILE, "tune.conf:7")));
        assertThatThrownBy(() -> registry.register(EAGER))
                .isInstanceOf(ParameterException.class)
                .hasMessageContaining("btl_tcp_eager_limit")
                .hasMessageContaining("--tune file tune.conf:7")
                .hasMessageContaining("'lots' is not a byte count")
                .hasMessageContaining("type size");
    }

    @Test
    void shouldAcceptADeprecatedSynonymAndWarnAboutIt() {
        ParameterRegistry registry = new ParameterRegistry(List.of(
                raw("btl_tcp_old_eager", "4k", Kind.COMMAND_LINE, "--mca btl_tcp_old_eager")));
        Param<Long> param = registry.register(EAGER);
        assertThat(param.get()).isEqualTo(4096L);
        assertThat(registry.warnings()).singleElement().asString()
                .contains("btl_tcp_old_eager").contains("deprecated").contains("use btl_tcp_eager_limit");
        assertThat(registry.unknownNameWarnings()).isEmpty();
        assertThat(registry.find("btl_tcp_old_eager")).containsSame(param);
    }

    @Test
    void shouldWarnAboutUnknownNamesWithTheClosestRegisteredName() {
        ParameterRegistry registry = new ParameterRegistry(List.of(
                raw("btl_tcp_eager_limt", "4k", Kind.COMMAND_LINE, "--mca btl_tcp_eager_limt")));
        registry.register(EAGER);
        registry.register(ParameterSpec.builder("btl_tcp_priority", ParamType.INT, 0).help("p").build());
        assertThat(registry.unknownNameWarnings()).singleElement().asString()
                .isEqualTo("unknown MCA parameter 'btl_tcp_eager_limt' (command line --mca btl_tcp_eager_limt);"
                        + " did you mean 'btl_tcp_eager_limit'?");
    }

    @Test
    void shouldRefuseToSetAReadOnlyParameterOnceItsFrameworkIsOpen() {
        ParameterRegistry registry = ParameterRegistry.withDefaultsOnly();
        Param<Long> readOnly = registry.register(EAGER);
        Param<Integer> settable = registry.register(
                ParameterSpec.builder("btl_base_verbose", ParamType.INT, 0).help("v").settable().build());
        readOnly.set(1024L);
        assertThat(readOnly.source().kind()).isEqualTo(Kind.API);

        registry.freeze(name -> name.startsWith("btl_"));

        assertThatThrownBy(() -> readOnly.set(2048L)).isInstanceOf(ParameterException.class)
                .hasMessageContaining("btl_tcp_eager_limit is read-only");
        registry.setFromApi("btl_base_verbose", "5");
        assertThat(settable.get()).isEqualTo(5);
        assertThatThrownBy(() -> registry.setFromApi("btl_base_verbose", "five"))
                .hasMessageContaining("'five' is not an integer");
        assertThatThrownBy(() -> registry.setFromApi("btl_base_verbos", "1"))
                .hasMessageContaining("did you mean 'btl_base_verbose'?");
    }

    @Test
    void shouldRejectASecondRegistrationOfOneName() {
        ParameterRegistry registry = ParameterRegistry.withDefaultsOnly();
        registry.register(EAGER);
        assertThatThrownBy(() -> registry.register(EAGER)).hasMessageContaining("registered twice");
    }

    @Test
    void shouldPrefixShortNamesForAComponent() {
        ParameterRegistry registry = ParameterRegistry.withDefaultsOnly();
        Param<Integer> param = registry.prefixed("btl_sm")
                .register(ParameterSpec.builder("fifo_size", ParamType.INT, 4096).help("h").build());
        assertThat(param.name()).isEqualTo("btl_sm_fifo_size");
    }

    @Test
    void shouldRejectBadDeclarations() {
        assertThatThrownBy(() -> ParameterSpec.builder("Bad-Name", ParamType.INT, 0).help("h").build())
                .hasMessageContaining("'Bad-Name'");
        assertThatThrownBy(() -> ParameterSpec.builder("x", ParamType.INT, 0).help("h").level(10).build())
                .hasMessageContaining("level=10");
        assertThatThrownBy(() -> ParameterSpec.builder("x", ParamType.INT, 0).build())
                .hasMessageContaining("no help text");
    }

    @Test
    void editDistanceCountsInsertionsDeletionsAndSubstitutions() {
        assertThat(EditDistance.between("kitten", "sitting")).isEqualTo(3);
        assertThat(EditDistance.between("", "abc")).isEqualTo(3);
        assertThat(EditDistance.between("same", "same")).isZero();
    }
}
