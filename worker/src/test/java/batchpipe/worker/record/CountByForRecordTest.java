package batchpipe.worker.record;

import batchpipe.common.run.CountAccuracy;
import batchpipe.worker.scan.ApproximateCounts;
import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class CountByForRecordTest {
    @Test
    void fit_keepsEverySmallCountByAsItIs() {
        CountByForRecord.Fitted fitted = CountByForRecord.fit(Map.of("level", Map.of("INFO", 7L, "WARN", 2L)));
        assertThat(fitted.countBy()).isEqualTo(Map.of("level", Map.of("INFO", 7L, "WARN", 2L)));
        assertThat(fitted.other()).isEqualTo(Map.of("level", 0L));
        assertThat(fitted.distinct()).isEqualTo(Map.of("level", 2L));
        assertThat(fitted.truncated()).isFalse();
    }

    @Test
    void fit_keepsTheHundredMostFrequentValuesAndAccountsForTheRest() {
        Map<String, Long> users = new HashMap<>();
        for (int i = 0; i < 250; i++) {
            users.put(String.format("u-%03d", i), i < 100 ? 10L : 1L); // 100 heavy users, 150 light ones
        }
        CountByForRecord.Fitted fitted = CountByForRecord.fit(Map.of("user.id", users));

        assertThat(fitted.countBy().get("user.id")).hasSize(100).containsEntry("u-000", 10L).containsEntry("u-099", 10L)
                .doesNotContainKey("u-100");
        assertThat(fitted.other()).containsEntry("user.id", 150L);
        assertThat(fitted.distinct()).containsEntry("user.id", 250L);
        assertThat(fitted.truncated()).isTrue();
    }

    @Test
    void fit_breaksTiesByValueSoTheRecordIsTheSameEveryTime() {
        Map<String, Long> ties = new HashMap<>();
        for (int i = 0; i < 150; i++) ties.put(String.format("v%03d", i), 1L);
        assertThat(CountByForRecord.fit(Map.of("p", ties)).countBy().get("p")).containsKey("v000").containsKey("v099").doesNotContainKey("v100");
    }

    @Test
    void fit_cutsVeryLongValues() {
        String longValue = "x".repeat(5_000);
        CountByForRecord.Fitted fitted = CountByForRecord.fit(Map.of("msg", Map.of(longValue, 3L)));
        assertThat(fitted.countBy().get("msg")).containsEntry("x".repeat(128) + "…", 3L);
    }

    @Test
    void fit_recordsExactCountsAsExact() {
        CountByForRecord.Fitted fitted = CountByForRecord.fit(Map.of("level", Map.of("INFO", 7L)));
        assertThat(fitted.exact()).isTrue();
        assertThat(fitted.accuracy()).containsEntry("level", CountAccuracy.EXACT);
    }

    @Test
    void fit_saysWhichPathsAreApproximateWithTheLargestOverCountAmongTheKeptValues() {
        Map<String, Long> users = new HashMap<>();
        Map<String, Long> overCounts = new HashMap<>();
        for (int i = 0; i < 150; i++) {
            users.put(String.format("u-%03d", i), 1_000L - i);
            overCounts.put(String.format("u-%03d", i), i == 42 ? 30L : i == 120 ? 900L : 5L); // u-120 is not kept
        }
        CountByForRecord.Fitted fitted = CountByForRecord.fit(
                Map.of("level", Map.of("INFO", 1_000_000L), "user.id", users),
                Map.of("user.id", new ApproximateCounts(1_000_000L, 812_345L, overCounts)));

        assertThat(fitted.exact()).isFalse();
        assertThat(fitted.accuracy()).containsEntry("level", CountAccuracy.EXACT)
                .containsEntry("user.id", new CountAccuracy(false, 30L, false));
        assertThat(fitted.distinct()).containsEntry("user.id", 812_345L).containsEntry("level", 1L);
        long kept = fitted.countBy().get("user.id").values().stream().mapToLong(Long::longValue).sum();
        assertThat(fitted.other()).containsEntry("user.id", 1_000_000L - kept);
    }
}
