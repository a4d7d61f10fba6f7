package batchpipe.common.task;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import static org.assertj.core.api.Assertions.assertThat;

class TaskIdsTest {

    @Test
    void scanTaskId_isTheFirstSixteenHexDigitsOfSha256OverRunBucketAndKey() {
        // printf 'r1\nbucket-a\nlogs/a.json' | sha256sum  ->  a6771c54ba0adad2...
        assertThat(TaskIds.scanTaskId("r1", "bucket-a", "logs/a.json")).isEqualTo("scan-a6771c54ba0adad2");
    }

    @Test
    void scanTaskId_isDeterministic() {
        assertThat(TaskIds.scanTaskId("r1", "bucket-a", "logs/a.json"))
                .isEqualTo(TaskIds.scanTaskId("r1", "bucket-a", "logs/a.json"));
    }

    @Test
    void scanTaskId_differsPerRunBucketAndKey() {
        String base = TaskIds.scanTaskId("r1", "bucket-a", "logs/a.json");

        // printf 'r2\nbucket-a\nlogs/a.json' | sha256sum  ->  40e609d39bfdfd14...
        assertThat(TaskIds.scanTaskId("r2", "bucket-a", "logs/a.json")).isEqualTo("scan-40e609d39bfdfd14");
        assertThat(TaskIds.scanTaskId("r1", "bucket-b", "logs/a.json")).isNotEqualTo(base);
        assertThat(TaskIds.scanTaskId("r1", "bucket-a", "logs/b.json")).isNotEqualTo(base);
        // The separator keeps (bucket "ab", key "c") apart from (bucket "a", key "bc").
        assertThat(TaskIds.scanTaskId("r1", "ab", "c")).isNotEqualTo(TaskIds.scanTaskId("r1", "a", "bc"));
    }

    @Test
    void hashTaskId_isZeroPaddedToSixDigits() {
        assertThat(TaskIds.hashTaskId(1)).isEqualTo("hash-000001");
        assertThat(TaskIds.hashTaskId(42)).isEqualTo("hash-000042");
        assertThat(TaskIds.hashTaskId(100_000)).isEqualTo("hash-100000");
        assertThat(TaskIds.hashTaskId(1_234_567)).isEqualTo("hash-1234567");
    }

    @Test
    void hashTaskIds_sortInBatchOrder() {
        List<String> ids = new ArrayList<>(List.of(TaskIds.hashTaskId(10), TaskIds.hashTaskId(9), TaskIds.hashTaskId(100)));

        ids.sort(null);

        assertThat(ids).containsExactly("hash-000009", "hash-000010", "hash-000100");
    }

    @Test
    void hashTaskId_isTheSameInEveryLocale() {
        Locale saved = Locale.getDefault();
        try {
            Locale.setDefault(Locale.forLanguageTag("ar-SA"));
            assertThat(TaskIds.hashTaskId(7)).isEqualTo("hash-000007");
        } finally {
            Locale.setDefault(saved);
        }
    }

    @Test
    void newRunId_startsWithTheUtcTimeAndEndsWithSixHexDigits() {
        String id = TaskIds.newRunId(Instant.parse("2026-11-30T01:02:03.999Z"));

        assertThat(id).matches("20261130T010203Z-[0-9a-f]{6}");
    }

    @Test
    void newRunId_sortsByCreationTime() {
        String first = TaskIds.newRunId(Instant.parse("2026-11-30T23:59:59Z"));
        String second = TaskIds.newRunId(Instant.parse("2026-12-01T00:00:00Z"));
        String third = TaskIds.newRunId(Instant.parse("2026-12-01T00:00:01Z"));
        List<String> ids = new ArrayList<>(List.of(third, first, second));

        ids.sort(null);

        assertThat(ids).containsExactly(first, second, third);
    }

    @Test
    void newRunId_differsBetweenTwoRunsOfTheSameSecond() {
        Instant now = Instant.parse("2026-11-30T01:02:03Z");
        // 24 random bits: the chance that 5 ids are not all distinct is about 1 in 1.7 million.
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 5; i++) ids.add(TaskIds.newRunId(now));

        assertThat(ids).doesNotHaveDuplicates();
    }

    @Test
    void isValidRunId_acceptsEveryNewRunId() {
        for (int i = 0; i < 50; i++) {
            String id = TaskIds.newRunId(Instant.now());
            assertThat(TaskIds.isValidRunId(id)).as(id).isTrue();
        }
        assertThat(TaskIds.isValidRunId("20261201T123259Z-958dc5")).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"r1", "sample-run", "sample-events", "nightly-2026.11.30", "A", "run_1.v2-b"})
    void isValidRunId_acceptsLettersDigitsDotsUnderscoresAndDashes(String runId) {
        assertThat(TaskIds.isValidRunId(runId)).isTrue();
    }

    @ParameterizedTest
    @ValueSource(strings = {"", ".", "..", "a..b", "../etc", "a/b", "a\\b", ".hidden", "-rf", "_x", "c:x", "run 1",
            "r1\n", "\u001b[31mred", "ünï"})
    void isValidRunId_refusesWhatCouldLeaveItsFolderOrIsNotPlainAscii(String runId) {
        assertThat(TaskIds.isValidRunId(runId)).isFalse();
    }

    @Test
    void isValidRunId_allowsAtMost128Characters() {
        assertThat(TaskIds.isValidRunId("a".repeat(128))).isTrue();
        assertThat(TaskIds.isValidRunId("a".repeat(129))).isFalse();
        assertThat(TaskIds.isValidRunId(null)).isFalse();
    }
}
