package batchpipe.aggregator.stats;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private static Map<String, Object> task(String kind, long finishedAt, long events, long bytes, long hashes) {
        return new HashMap<>(Map.of("kind", kind, "finishedAt", finishedAt, "events", events, "bytes", bytes, "hashes", hashes));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> buckets(Map<String, Object> timeline) {
        return (List<Map<String, Object>>) timeline.get("buckets");
    }

    @Test
    void bucketSeconds_isTheSmallestRoundWidthThatNeedsAtMostSixtyBuckets() {
        assertThat(Timeline.bucketSeconds(0)).isEqualTo(1);
        assertThat(Timeline.bucketSeconds(60_000)).isEqualTo(1);          // 60 buckets of 1 s
        assertThat(Timeline.bucketSeconds(60_001)).isEqualTo(2);          // 61 would be too many
        assertThat(Timeline.bucketSeconds(120_001)).isEqualTo(5);
        assertThat(Timeline.bucketSeconds(3_600_000)).isEqualTo(60);
        assertThat(Timeline.bucketSeconds(3_600_001)).isEqualTo(120);
        assertThat(Timeline.bucketSeconds(60L * 86_400_000)).isEqualTo(86_400);
        assertThat(Timeline.bucketSeconds(60L * 86_400_000 + 1)).isEqualTo(2 * 86_400);
    }

    @Test
    void of_countsEachTaskInTheBucketOfItsFinishAndRatesOverTheSecondsEachBucketCovers() {
        // window 10,000 .. 14,500: 5 buckets of 1 s, the last one covering 0.5 s
        List<Map<String, Object>> tasks = List.of(
                task("scan", 10_000, 100, 2_000_000, 0),   // offset 0: bucket 0
                task("scan", 10_999, 50, 1_000_000, 0),    // offset 999: bucket 0
                task("hash", 11_000, 0, 0, 10),            // offset 1,000: bucket 1
                task("hash", 14_500, 0, 0, 4),             // the window's end: the last bucket
                task("scan", 9_000, 10, 0, 0));            // before the window: the first bucket

        Map<String, Object> timeline = Timeline.of(tasks, 10_000, 14_500);

        assertThat(timeline).containsEntry("start", 10_000L).containsEntry("bucketSeconds", 1L);
        List<Map<String, Object>> buckets = buckets(timeline);
        assertThat(buckets).hasSize(5);
        assertThat(buckets.get(0)).containsEntry("fromSecond", 0L).containsEntry("seconds", 1.0).containsEntry("tasks", 3L)
                .containsEntry("scanTasks", 3L).containsEntry("events", 160L).containsEntry("tasksPerSecond", 3.0)
                .containsEntry("uncompressedMBPerSecond", 3.0);
        assertThat(buckets.get(1)).containsEntry("tasks", 1L).containsEntry("hashTasks", 1L).containsEntry("hashesPerSecond", 10.0);
        assertThat(buckets.get(2)).containsEntry("tasks", 0L).containsEntry("tasksPerSecond", 0.0);
        // 1 task and 4 hashes in the last 0.5 s
        assertThat(buckets.get(4)).containsEntry("fromSecond", 4L).containsEntry("seconds", 0.5).containsEntry("tasks", 1L)
                .containsEntry("tasksPerSecond", 2.0).containsEntry("hashesPerSecond", 8.0);
    }

    @Test
    void of_noTasksHasNoBuckets() {
        assertThat(buckets(Timeline.of(List.of(), 0, 0))).isEmpty();
    }

    @Test
    void of_aWindowOfNoLengthIsOneBucket() {
        List<Map<String, Object>> buckets = buckets(Timeline.of(List.of(task("scan", 5, 1, 0, 0)), 5, 5));

        assertThat(buckets).hasSize(1);
        assertThat(buckets.get(0)).containsEntry("tasks", 1L).containsEntry("seconds", 0.001);
    }
}
