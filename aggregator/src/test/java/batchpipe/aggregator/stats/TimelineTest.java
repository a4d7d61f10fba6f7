package batchpipe.aggregator.stats;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class TimelineTest {

    private static TaskRecord task(String kind, long finishedAt, long events, long bytes, long hashes) {
        TaskRecords.Builder task = TaskRecords.task(kind + "-" + finishedAt, kind).times(null, finishedAt, finishedAt);
        return kind.equals("scan") ? task.scanned(events, 0, bytes, 0).build() : task.hashed(hashes, 4).build();
    }

    /** The timeline of these tasks over the window {@code startMs} to {@code endMs}, folded as the aggregator folds them. */
    private static RunFigures.TimelineFigures of(List<TaskRecord> tasks, long startMs, long endMs) {
        Timeline.Fold fold = new Timeline.Fold();
        tasks.forEach(fold::add);
        return fold.figures(startMs, endMs);
    }

    private static List<RunFigures.Bucket> buckets(RunFigures.TimelineFigures timeline) {
        return timeline.buckets();
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
        List<TaskRecord> tasks = List.of(
                task("scan", 10_000, 100, 2_000_000, 0),   // offset 0: bucket 0
                task("scan", 10_999, 50, 1_000_000, 0),    // offset 999: bucket 0
                task("hash", 11_000, 0, 0, 10),            // offset 1,000: bucket 1
                task("hash", 14_500, 0, 0, 4),             // the window's end: the last bucket
                task("scan", 9_000, 10, 0, 0));            // before the window: the first bucket

        RunFigures.TimelineFigures timeline = of(tasks, 10_000, 14_500);

        assertThat(timeline.start()).isEqualTo(10_000L);
        assertThat(timeline.bucketSeconds()).isEqualTo(1L);
        List<RunFigures.Bucket> buckets = buckets(timeline);
        assertThat(buckets).hasSize(5);
        assertThat(buckets.get(0)).isEqualTo(new RunFigures.Bucket(0, 1.0, 3, 3, 0, 160, 3_000_000, 0, 3.0, 160.0, 3.0, 0.0));
        assertThat(buckets.get(1)).isEqualTo(new RunFigures.Bucket(1, 1.0, 1, 0, 1, 0, 0, 10, 1.0, 0.0, 0.0, 10.0));
        assertThat(buckets.get(2).tasks()).isZero();
        assertThat(buckets.get(2).tasksPerSecond()).isEqualTo(0.0);
        // 1 task and 4 hashes in the last 0.5 s
        assertThat(buckets.get(4)).isEqualTo(new RunFigures.Bucket(4, 0.5, 1, 0, 1, 0, 0, 4, 2.0, 0.0, 0.0, 8.0));
    }

    @Test
    void of_noTasksHasNoBuckets() {
        assertThat(buckets(of(List.of(), 0, 0))).isEmpty();
    }

    @Test
    void of_aWindowOfNoLengthIsOneBucket() {
        List<RunFigures.Bucket> buckets = buckets(of(List.of(task("scan", 5, 1, 0, 0)), 5, 5));

        assertThat(buckets).hasSize(1);
        assertThat(buckets.get(0).tasks()).isEqualTo(1);
        assertThat(buckets.get(0).seconds()).isEqualTo(0.001);
    }
}
