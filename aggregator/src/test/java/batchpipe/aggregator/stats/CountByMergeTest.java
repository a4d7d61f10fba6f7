package batchpipe.aggregator.stats;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CountByMergeTest {

    @Test
    void merge_addsTheTasksCountsExactlyWhileAPathStaysWithinItsBound() {
        CountByMerge merge = new CountByMerge(10);
        merge.add(Map.of("level", Map.of("INFO", 3L, "WARN", 1L)));
        merge.add(Map.of("level", Map.of("INFO", 2L), "service", Map.of()));

        assertThat(merge.merged()).isEqualTo(Map.of("level", Map.of("INFO", 5L, "WARN", 1L), "service", Map.of()));
        assertThat(merge.overCounts()).isEmpty();
    }

    @Test
    void merge_pastItsBound_keepsTheFrequentValuesAndNeverUnderStatesACount() {
        int bound = 50;
        CountByMerge merge = new CountByMerge(bound);
        Map<String, Long> truth = new HashMap<>();
        Random random = new Random(3);
        for (int task = 0; task < 2_000; task++) {
            Map<String, Long> values = new TreeMap<>();
            values.put("hot-" + task % 5, 100L); // five values every task names
            for (int v = 0; v < 20; v++) values.put("user-" + random.nextInt(100_000), 1L);
            values.forEach((value, n) -> truth.merge(value, n, Long::sum));
            merge.add(Map.of("user", values));
        }

        Map<String, Long> merged = merge.merged().get("user");
        long overCount = merge.overCounts().get("user");
        assertThat(merged.size()).isLessThanOrEqualTo(2 * bound);
        for (int hot = 0; hot < 5; hot++) assertThat(merged).containsKey("hot-" + hot);
        merged.forEach((value, count) -> assertThat(count).isBetween(truth.get(value), truth.get(value) + overCount));
        assertThat(overCount).isPositive();
    }

    @Test
    void merge_refusesABoundBelowOne() {
        assertThatThrownBy(() -> new CountByMerge(0)).hasMessageContaining("maxValues must be at least 1, got 0");
    }
}
