package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * JMCA as a user installs it (issue 38): the archive the build makes, unpacked outside the source
 * tree and run from there, its system parameter file included; and README's "Using JMCA from your
 * build", whose snippets are the consumer projects' own files (tests/consumers builds those).
 */
class InstallTest {
    private static final Path CONSUMERS = Jmca.ROOT.resolve("tests/consumers/src/it");

    private static Path archive() throws IOException {
        try (Stream<Path> files = Files.list(Jmca.ROOT.resolve("dist/target"))) {
            List<Path> archives = files.filter(f -> f.getFileName().toString().matches("jmca-.*\\.tar\\.gz")).toList();
            assertThat(archives).as("the build's archive in dist/target").hasSize(1);
            return archives.getFirst();
        }
    }

    @Test
    void theArchiveRunsAJobUnpackedAnywhere(@TempDir Path dir) throws Exception {
        Path archive = archive();
        Jmca shell = new Jmca(dir).unset("JMCA_HOME");
        assertThat(shell.exec(List.of("tar", "xzf", archive.toString(), "-C", dir.toString())).status()).isZero();
        String name = archive.getFileName().toString().replace(".tar.gz", "");
        Path home = dir.resolve(name);
        assertThat(home.resolve("README.md")).exists();
        assertThat(home.resolve("LICENSE")).exists();
        assertThat(home.resolve("aot")).isNotEmptyDirectory();
        assertThat(Files.readString(home.resolve("etc/mca-params.conf"))).startsWith("# JMCA's system parameter file");

        Jmca.Result job = shell.exec(List.of(home.resolve("bin/jmpirun").toString(), "-np", "2", "-cp",
                Jmca.PROGRAMS.toString(), "org.jmca.tests.programs.LaunchProbe"));
        assertThat(job.status()).as(job.err()).isZero();
        assertThat(job.outLines()).containsExactlyInAnyOrder("hello from rank 0 of 2", "hello from rank 1 of 2");
        assertThat(job.err()).as("the archive's ahead-of-time caches are taken where it is unpacked")
                .doesNotContain("ahead-of-time cache");

        // JMCA_HOME is the unpacked folder: its etc/mca-params.conf is the system parameter file.
        Files.writeString(home.resolve("etc/mca-params.conf"), "btl = self,tcp\n", java.nio.file.StandardOpenOption.APPEND);
        Jmca.Result info = shell.exec(List.of(home.resolve("bin/jmca-info").toString(), "--param", "btl", "all"));
        assertThat(info.status()).as(info.err()).isZero();
        assertThat(info.out()).contains("system file " + home.resolve("etc/mca-params.conf").toRealPath() + ":");
    }

    /** The BOM pins every artifact of the reactor a user may name, at the reactor's version. */
    @Test
    void theBomPinsEveryJmcaArtifact() throws Exception {
        String root = Files.readString(Jmca.ROOT.resolve("pom.xml"));
        String bom = Files.readString(Jmca.ROOT.resolve("bom/pom.xml"));
        assertThat(bom).contains("<version>" + tag(root, "version") + "</version>");
        java.util.regex.Matcher module = java.util.regex.Pattern.compile("<module>([^<]+)</module>").matcher(root);
        int pinned = 0;
        while (module.find()) {
            String pom = Files.readString(Jmca.ROOT.resolve(module.group(1)).resolve("pom.xml"));
            String artifact = tag(pom.substring(pom.indexOf("</parent>") + 1), "artifactId");
            boolean program = List.of("jmca-examples", "jmca-bench", "jmca-bom").contains(artifact);
            if (!program && !pom.contains("<packaging>pom</packaging>")) {
                assertThat(bom).as("the BOM pins " + artifact).contains("<artifactId>" + artifact + "</artifactId>");
                pinned++;
            }
        }
        assertThat(pinned).isGreaterThan(25);
    }

    private static String tag(String xml, String name) {
        int start = xml.indexOf("<" + name + ">") + name.length() + 2;
        return xml.substring(start, xml.indexOf("</" + name + ">", start));
    }

    /** README's snippets, in the order they appear there, are the consumer projects' files. */
    @Test
    void readmesSnippetsAreTheConsumerProjectsFiles() throws Exception {
        String readme = Files.readString(Jmca.ROOT.resolve("README.md"));
        int section = readme.indexOf("## Using JMCA from your build");
        assertThat(section).as("README's section").isPositive();
        String text = readme.substring(section, readme.indexOf("\n## ", section + 1));
        String version = archive().getFileName().toString().replaceAll("^jmca-|\\.tar\\.gz$", "");
        String pom = Files.readString(CONSUMERS.resolve("mpitest-app/pom.xml")).replace("@project.version@", version);
        List<String> blocks = blocks(text);
        assertThat(blocks).hasSizeGreaterThanOrEqualTo(4);
        assertThat(pom).as("README's dependencies are the consumer's pom's").contains(blocks.get(0));
        assertThat(blocks.get(1)).isEqualTo(Files.readString(CONSUMERS.resolve("launch-app/src/main/java/app/Hello.java")));
        assertThat(blocks.get(2)).isEqualTo(Files.readString(CONSUMERS.resolve("launch-app/src/main/java/app/RunHello.java")));
        assertThat(blocks.get(3)).isEqualTo(Files.readString(CONSUMERS.resolve("mpitest-app/src/test/java/AllreduceTest.java")));
    }

    /** The fenced code blocks of a Markdown text, without their fences ({@code ```sh} blocks left out). */
    private static List<String> blocks(String text) {
        List<String> blocks = new java.util.ArrayList<>();
        for (int at = text.indexOf("```"); at >= 0; at = text.indexOf("```", text.indexOf("```", at + 3) + 3)) {
            int body = text.indexOf('\n', at) + 1;
            String language = text.substring(at + 3, body - 1);
            if (!language.equals("sh") && !language.isEmpty()) {
                blocks.add(text.substring(body, text.indexOf("```", body)));
            }
        }
        return blocks;
    }
}
