package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.lang.reflect.Field;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jmca.rte.PmixWireUp;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What {@link PmixWireUp} assumes of libpmix — the sizes and offsets of the structures it fills,
 * the type codes, the rank wildcard, the scope and the keys — against the installed
 * {@code <pmix.h>}: a C program prints each as the compiler sees it. The test installs
 * libpmix-dev and gcc where they are missing, and is skipped, saying why, where it cannot.
 */
class PmixLayoutsTest {
    private static final Path INCLUDE = Path.of("/usr/lib/x86_64-linux-gnu/pmix2/include");

    /** The Java constant -> the C expression it must equal. */
    private static final Map<String, String> EXPECTED = new LinkedHashMap<>();

    static {
        EXPECTED.put("PROC_SIZE", "sizeof(pmix_proc_t)");
        EXPECTED.put("PROC_RANK", "offsetof(pmix_proc_t, rank)");
        EXPECTED.put("VALUE_SIZE", "sizeof(pmix_value_t)");
        EXPECTED.put("VALUE_DATA", "offsetof(pmix_value_t, data)");
        EXPECTED.put("INFO_SIZE", "sizeof(pmix_info_t)");
        EXPECTED.put("INFO_VALUE", "offsetof(pmix_info_t, value)");
        EXPECTED.put("PMIX_BOOL", "PMIX_BOOL");
        EXPECTED.put("PMIX_STRING", "PMIX_STRING");
        EXPECTED.put("PMIX_UINT16", "PMIX_UINT16");
        EXPECTED.put("PMIX_UINT32", "PMIX_UINT32");
        EXPECTED.put("RANK_WILDCARD", "PMIX_RANK_WILDCARD");
        EXPECTED.put("SCOPE_GLOBAL", "PMIX_GLOBAL");
        EXPECTED.put("JOB_SIZE", "PMIX_JOB_SIZE");
        EXPECTED.put("LOCAL_SIZE", "PMIX_LOCAL_SIZE");
        EXPECTED.put("LOCAL_RANK", "PMIX_LOCAL_RANK");
        EXPECTED.put("HOSTNAME", "PMIX_HOSTNAME");
        EXPECTED.put("COLLECT_DATA", "PMIX_COLLECT_DATA");
    }

    @TempDir
    static Path dir;

    /** The C expression -> its value, as the compiled program prints it. */
    private static final Map<String, String> compiled = new LinkedHashMap<>();

    @BeforeAll
    static void compileAndRun() throws IOException {
        String why = Packages.ensure("libpmix-dev", "gcc", "libc6-dev");
        assumeTrue(why == null, why);
        assumeTrue(Files.isRegularFile(INCLUDE.resolve("pmix.h")), INCLUDE + "/pmix.h is missing");
        StringBuilder c = new StringBuilder("#include <stddef.h>\n#include <stdio.h>\n#include <pmix.h>\n"
                + "int main(void) {\n");
        for (String expression : EXPECTED.values()) {
            boolean text = expression.startsWith("PMIX_") && !expression.matches("PMIX_(BOOL|STRING|UINT\\d+|GLOBAL)")
                    && !expression.equals("PMIX_RANK_WILDCARD");
            c.append("  printf(\"%s\\t").append(text ? "%s" : "%ld").append("\\n\", \"").append(expression)
                    .append("\", ").append(text ? "" : "(long) ").append(expression).append(");\n");
        }
        c.append("  return 0;\n}\n");
        Path source = Files.writeString(dir.resolve("layouts.c"), c);
        Path program = dir.resolve("layouts");
        NamespaceHosts.run("cc", "-I" + INCLUDE, "-o", program.toString(), source.toString());
        for (String line : NamespaceHosts.run(program.toString()).lines().toList()) {
            String[] words = line.split("\t", 2);
            compiled.put(words[0], words[1]);
        }
    }

    static List<String> constants() {
        return List.copyOf(EXPECTED.keySet());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("constants")
    void theConstantIsTheHeaders(String name) throws ReflectiveOperationException {
        Field field = PmixWireUp.class.getDeclaredField(name);
        field.setAccessible(true);
        Object value = field.get(null);
        String expression = EXPECTED.get(name);
        String java = value instanceof Number n ? String.valueOf(n.longValue()) : value.toString();
        String c = compiled.get(expression);
        if (value instanceof Integer i && i < 0) {
            // an unsigned C constant (the rank wildcard) as Java's int holds it
            java = Long.toString(Integer.toUnsignedLong(i));
        }
        assertThat(java).as("%s (the header's %s)", name, expression).isEqualTo(c);
    }
}
