package org.jmca.mca;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ComponentRepositoryTest {

    @TempDir
    Path dir;

    /** A class loader that sees a services file listing the given providers. */
    private URLClassLoader loaderListing(String... providers) throws IOException {
        Path services = dir.resolve("META-INF/services");
        Files.createDirectories(services);
        Files.writeString(services.resolve(Component.class.getName()), String.join("\n", providers) + "\n");
        return new URLClassLoader(new URL[] {dir.toUri().toURL()}, getClass().getClassLoader());
    }

    @Test
    void shouldFindComponentsThroughServiceLoaderAndGroupThemByFramework() throws IOException {
        try (URLClassLoader loader = loaderListing(FakeComponents.ServiceBtlA.class.getName(),
                FakeComponents.ServiceProgressB.class.getName())) {
            ComponentRepository repository = ComponentRepository.discover(loader);

            assertThat(repository.components(Framework.BTL)).extracting(Component::name).containsExactly("alpha");
            assertThat(repository.components(Framework.PROGRESS)).extracting(Component::name).containsExactly("beta");
            assertThat(repository.components(Framework.PML)).isEmpty();
            assertThat(repository.problems()).isEmpty();
        }
    }

    @Test
    void shouldLeaveOutProvidersThatCannotLoadOrBreakTheRulesAndSayWhy() throws IOException {
        try (URLClassLoader loader = loaderListing("org.example.Missing", FakeComponents.Impostor.class.getName(),
                FakeComponents.ServiceBtlA.class.getName())) {
            ComponentRepository repository = ComponentRepository.discover(loader);

            assertThat(repository.components(Framework.BTL)).extracting(Component::name).containsExactly("alpha");
            assertThat(repository.problems()).hasSize(2);
            assertThat(repository.problems().get(0)).contains("org.example.Missing");
            assertThat(repository.problems().get(1)).contains("Impostor").contains("org.jmca.mca.btl.BtlComponent");
        }
    }

    @Test
    void shouldRefuseTwoComponentsWithOneName() throws IOException {
        try (URLClassLoader loader = loaderListing(FakeComponents.ServiceBtlA.class.getName(),
                FakeComponents.ServiceBtlAlphaAgain.class.getName())) {
            assertThatThrownBy(() -> ComponentRepository.discover(loader))
                    .isInstanceOf(McaException.class)
                    .hasMessageContaining("two components are named btl/alpha")
                    .hasMessageContaining("ServiceBtlAlphaAgain");
        }
    }
}
