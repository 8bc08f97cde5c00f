package org.jmca.tests;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * MPI windows ({@code mpi.Win}): the OneSided program, which uses every call and checks every
 * result and error class, on 2-4 ranks over sm, tcp, lapi (each dispatcher mode) and the
 * software verbs device, with blocks that fit a control message and blocks that need the
 * rendezvous; and which way each transport carries the operations (direct RMA over a BTL's put
 * and get, or active messages).
 */
class OneSidedTest {

    @TempDir
    Path home;

    private static final String LAPI = "btl self,lapi btl_lapi_device emulated btl_lapi_mode ";

    @ParameterizedTest(name = "{0} ranks, {1}, blocks of {2} ints")
    @CsvSource({
        "2, 'btl self,sm',                               300,   'puts=0 gets=0'",
        "4, 'btl self,sm',                               40000, 'puts=0 gets=0'",
        "3, 'btl self,sm btl_sm_single_copy_min 0',      300,   'puts=0 gets=[1-9]'",
        "2, 'btl self,tcp',                              40000, 'puts=0 gets=0'",
        "3, 'btl self,tcp',                              300,   'puts=0 gets=0'",
        "2, '" + LAPI + "polling',                       40000, 'puts=[1-9]\\d* gets=[1-9]'",
        "4, '" + LAPI + "interrupt',                     300,   'puts=[1-9]\\d* gets=[1-9]'",
        "3, '" + LAPI + "lockfree',                      40000, 'puts=[1-9]\\d* gets=[1-9]'",
        "2, 'btl self,verbs btl_verbs_device soft',      300,   'puts=[1-9]\\d* gets=[1-9]'",
    })
    void everyWindowCallGivesWhatMpiSays(int np, String parameters, String block, String paths) {
        List<String> flags = new java.util.ArrayList<>();
        String[] words = parameters.split(" ");
        for (int i = 0; i < words.length; i += 2) {
            flags.addAll(List.of("--mca", words[i], words[i + 1]));
        }
        Jmca.Result result = new Jmca(home).mpirun(np, "OneSided", flags, block);
        assertThat(result.status()).as("status; stderr: %s", result.err()).isZero();
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("PASS one-sided")).hasSize(np);
        assertThat(result.outLines()).filteredOn(l -> l.startsWith("rank 1 windows"))
                .singleElement().asString().containsPattern("direct " + paths);
    }
}
