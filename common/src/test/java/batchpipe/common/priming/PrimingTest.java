package batchpipe.common.priming;

import org.junit.jupiter.api.Test;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class PrimingTest {

    @Test
    void prime_runsEveryStepInOrderAndReportsAFailedOneWithoutThrowing() {
        List<String> ran = new ArrayList<>();
        Priming priming = Priming.of("test")
                .warm("first", () -> ran.add("first"))
                .warm("broken", () -> {
                    throw new IllegalStateException("no sample");
                })
                .warm("last", () -> ran.add("last"))
                .build();

        String log = capturingStdout(() -> {
            Priming.Report report = priming.prime();
            assertThat(report.millis()).containsOnlyKeys("first", "broken", "last");
            assertThat(report.failed()).containsExactly("broken");
        });

        assertThat(ran).containsExactly("first", "last");
        assertThat(log).contains("\"step\":\"broken\"").contains("no sample").contains("primed before the snapshot");
    }

    @Test
    void warm_rejectsTheSameStepNameTwice() {
        assertThatThrownBy(() -> Priming.of("test").warm("sdk", () -> { }).warm("sdk", () -> { }))
                .hasMessageContaining("'sdk' is declared twice");
    }

    @Test
    void restore_reseedsTheDefaultSecureRandomAndSaysWhichAlgorithm() {
        String log = capturingStdout(() -> Priming.of("test").build().restore());
        assertThat(log).contains("restored from the snapshot").contains("\"reseeded\":\"" + new java.security.SecureRandom().getAlgorithm() + "\"");
    }

    @Test
    void beforeCheckpointAndAfterRestore_areTheCracEntryPoints() {
        List<String> ran = new ArrayList<>();
        Priming priming = Priming.of("test").warm("step", () -> ran.add("step")).build();
        String log = capturingStdout(() -> {
            priming.beforeCheckpoint(null);
            priming.afterRestore(null);
        });
        assertThat(ran).containsExactly("step");
        assertThat(log).contains("primed before the snapshot").contains("restored from the snapshot");
    }

    static String capturingStdout(Runnable action) {
        PrintStream original = System.out;
        ByteArrayOutputStream captured = new ByteArrayOutputStream();
        System.setOut(new PrintStream(captured, true, StandardCharsets.UTF_8));
        try {
            action.run();
        } finally {
            System.setOut(original);
        }
        return captured.toString(StandardCharsets.UTF_8);
    }
}
