package batchpipe.common.task;

import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class HashTaskTest {
    private static final Instant AT = Instant.parse("2026-11-30T01:02:03Z");

    @Test
    void input_isThePrefixAndTheIndexAsSixDigits() {
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 10, "password_", 1, null);

        assertThat(task.input(0)).isEqualTo("password_000001");
        assertThat(task.input(9)).isEqualTo("password_000010");
    }

    @Test
    void input_countsFromStart() {
        HashTask task = new HashTask("r1", "hash-000003", AT, 4, 100, "pw-", 201, null);

        assertThat(task.input(0)).isEqualTo("pw-000201");
        assertThat(task.input(99)).isEqualTo("pw-000300");
        assertThat(task.itemIndex(0)).isEqualTo(201L);
        assertThat(task.itemIndex(99)).isEqualTo(300L);
    }

    @Test
    void input_returnsGivenInputsWhenPresent() {
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 2, null, 1, List.of("alpha", "beta"));

        assertThat(task.input(0)).isEqualTo("alpha");
        assertThat(task.input(1)).isEqualTo("beta");
    }

    @Test
    void constructor_copiesTheInputs() {
        List<String> inputs = new ArrayList<>(List.of("alpha"));
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 1, null, 1, inputs);

        inputs.set(0, "changed");

        assertThat(task.input(0)).isEqualTo("alpha");
    }

    @Test
    void toString_hidesTheInputs() {
        HashTask task = new HashTask("r1", "hash-000001", AT, 10, 2, null, 1, List.of("hunter2", "s3cret"));

        assertThat(task.toString())
                .isEqualTo("HashTask[runId=r1, taskId=hash-000001, cost=10, count=2, inputs=<2 hidden>]")
                .doesNotContain("hunter2")
                .doesNotContain("s3cret");
    }

    @Test
    void toString_hidesThePrefix() {
        HashTask task = new HashTask("r1", "hash-000001", AT, 10, 2, "secretprefix_", 1, null);

        assertThat(task.toString())
                .isEqualTo("HashTask[runId=r1, taskId=hash-000001, cost=10, count=2, prefix=<hidden>]")
                .doesNotContain("secretprefix_");
    }

    @Test
    void kind_isHash() {
        assertThat(new HashTask("r1", "t", AT, 4, 1, "p", 1, null).kind()).isEqualTo(TaskKind.HASH);
        assertThat(TaskKind.HASH.wireName()).isEqualTo("hash");
        assertThat(TaskKind.fromWireName("scan")).isEqualTo(TaskKind.SCAN);
        assertThat(TaskKind.fromWireName("SCAN")).isNull();
    }

    @Test
    void input_isTheSameInEveryLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("ar-SA"));
            assertThat(new HashTask("r1", "t", AT, 4, 1, "password_", 1, null).input(0)).isEqualTo("password_000001");
        } finally {
            Locale.setDefault(saved);
        }
    }
}
