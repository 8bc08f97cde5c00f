package app;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import org.junit.jupiter.api.Test;

class RunHelloTest {
    @Test
    void helloRunsAsProcessesAndAsThreads() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        PrintStream stdout = System.out;
        System.setOut(new PrintStream(out, true));
        try {
            RunHello.main(new String[] {"target/classes"});
        } finally {
            System.setOut(stdout);
        }
        String both = "[rank 0 of 2: sum 3] / [rank 1 of 2: sum 3]";
        assertEquals(both + System.lineSeparator() + both + System.lineSeparator(), out.toString());
    }
}
