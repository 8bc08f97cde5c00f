package org.jmca.btl.verbs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.foreign.GroupLayout;
import java.lang.foreign.MemoryLayout;
import java.lang.foreign.PaddingLayout;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every field of {@link VerbsLayouts} against the installed {@code <infiniband/verbs.h>}: a C
 * program made from the Java layouts prints {@code sizeof} and {@code offsetof} of each, compiled
 * with the system's compiler. Skipped, saying why, where the header or a compiler is missing
 * (apt-get install gcc libibverbs-dev).
 */
class VerbsLayoutsTest {
    private static final Path HEADER = Path.of("/usr/include/infiniband/verbs.h");

    @TempDir
    static Path dir;

    /** "struct field" or "struct sizeof" -> bytes, as the compiler sees them. */
    private static Map<String, Long> compiled;

    @BeforeAll
    static void compileAndRun() throws IOException, InterruptedException {
        assumeTrue(Files.isRegularFile(HEADER), HEADER + " is missing (apt-get install libibverbs-dev)");
        assumeTrue(onPath("cc"), "no C compiler (apt-get install gcc)");
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <infiniband/verbs.h>\n"
                + "int main(void) {\n");
        for (var entry : VerbsLayouts.ALL.entrySet()) {
            String struct = entry.getKey();
            c.append("  printf(\"%s sizeof %zu\\n\", \"").append(struct).append("\", sizeof(struct ").append(struct)
                    .append("));\n");
            for (String field : fields(entry.getValue(), "")) {
                c.append("  printf(\"%s %s %zu\\n\", \"").append(struct).append("\", \"").append(field)
                        .append("\", offsetof(struct ").append(struct).append(", ").append(field).append("));\n");
            }
        }
        CONSTANTS.forEach((name, value) -> c.append("  printf(\"const %s %ld\\n\", \"").append(name)
                .append("\", (long) ").append(name).append(");\n"));
        c.append("  return 0;\n}\n");
        Path source = Files.writeString(dir.resolve("layouts.c"), c);
        Path program = dir.resolve("layouts");
        run(List.of("cc", "-o", program.toString(), source.toString()));
        compiled = new LinkedHashMap<>();
        for (String line : run(List.of(program.toString())).lines().toList()) {
            String[] words = line.split(" ");
            compiled.put(words[0] + " " + words[1], Long.parseLong(words[2]));
        }
    }

    /** Every constant of {@link Ibv} under its C name, with the value the Java code uses. */
    private static final Map<String, Long> CONSTANTS = constants();

    private static Map<String, Long> constants() {
        Map<String, Long> all = new LinkedHashMap<>();
        all.put("IBV_ACCESS_LOCAL_WRITE", (long) Ibv.ACCESS_LOCAL_WRITE);
        all.put("IBV_ACCESS_REMOTE_WRITE", (long) Ibv.ACCESS_REMOTE_WRITE);
        all.put("IBV_ACCESS_REMOTE_READ", (long) Ibv.ACCESS_REMOTE_READ);
        all.put("IBV_ACCESS_REMOTE_ATOMIC", (long) Ibv.ACCESS_REMOTE_ATOMIC);
        all.put("IBV_SEND_SIGNALED", (long) Ibv.SEND_SIGNALED);
        all.put("IBV_WC_GRH", (long) Ibv.WC_GRH);
        all.put("IBV_WC_WITH_IMM", (long) Ibv.WC_WITH_IMM);
        all.put("IBV_PORT_ACTIVE", (long) Ibv.PORT_ACTIVE);
        all.put("IBV_LINK_LAYER_INFINIBAND", (long) Ibv.LINK_LAYER_INFINIBAND);
        for (var field : Ibv.class.getFields()) {
            if (field.getName().startsWith("QP_") && field.getType() == int.class) {
                try {
                    all.put("IBV_" + field.getName(), (long) field.getInt(null));
                } catch (IllegalAccessException e) {
                    throw new AssertionError(e);
                }
            }
        }
        for (Ibv.QpState state : Ibv.QpState.values()) {
            all.put("IBV_QPS_" + state.name(), (long) state.ordinal());
        }
        for (Ibv.QpType type : Ibv.QpType.values()) {
            all.put("IBV_QPT_" + type.name(), (long) type.value);
        }
        for (Ibv.Opcode opcode : Ibv.Opcode.values()) {
            all.put("IBV_WR_" + opcode.name(), (long) opcode.value);
        }
        for (Ibv.WcStatus status : Ibv.WcStatus.values()) {
            all.put("IBV_WC_" + status.name(), (long) status.ordinal());
        }
        for (Ibv.WcOpcode opcode : Ibv.WcOpcode.values()) {
            all.put("IBV_WC_" + opcode.name(), (long) opcode.value);
        }
        return all;
    }

    @Test
    void everyConstantHasTheHeadersValue() {
        CONSTANTS.forEach((name, value) ->
                assertThat(value).as(name).isEqualTo(compiled.get("const " + name)));
    }

    @Test
    void everyStructHasTheHeadersSize() {
        VerbsLayouts.ALL.forEach((struct, layout) ->
                assertThat(layout.byteSize()).as("sizeof(struct %s)", struct)
                        .isEqualTo(compiled.get(struct + " sizeof")));
    }

    @Test
    void everyFieldIsAtTheHeadersOffset() {
        VerbsLayouts.ALL.forEach((struct, layout) -> {
            List<String> fields = fields(layout, "");
            assertThat(fields).as("fields of %s", struct).isNotEmpty();
            for (String field : fields) {
                MemoryLayout.PathElement[] path = Arrays.stream(field.split("\\."))
                        .map(MemoryLayout.PathElement::groupElement).toArray(MemoryLayout.PathElement[]::new);
                assertThat(layout.byteOffset(path)).as("offsetof(struct %s, %s)", struct, field)
                        .isEqualTo(compiled.get(struct + " " + field));
            }
        });
    }

    /** Dotted paths of every named member, nested ones included; padding has no name in C. */
    private static List<String> fields(GroupLayout group, String prefix) {
        List<String> fields = new ArrayList<>();
        for (MemoryLayout member : group.memberLayouts()) {
            if (member instanceof PaddingLayout || member.name().isEmpty()) {
                continue;
            }
            String path = prefix + member.name().get();
            fields.add(path);
            if (member instanceof GroupLayout inner) {
                fields.addAll(fields(inner, path + "."));
            }
        }
        return fields;
    }

    private static boolean onPath(String command) {
        for (String directory : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (Files.isExecutable(Path.of(directory, command))) {
                return true;
            }
        }
        return false;
    }

    private static String run(List<String> command) throws IOException, InterruptedException {
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("%s finished", command).isTrue();
        assertThat(process.exitValue()).as("%s failed:%n%s", command, output).isZero();
        return output;
    }
}
