package batchpipe.aggregator.stats;

import batchpipe.common.run.TaskRecord;

import java.util.ArrayList;
import java.util.List;

/**
 * Throughput over time: the run window cut into equal buckets (the smallest of 1, 2, 5, 10, 15, 30 s,
 * 1, 2, 5, 10, 15, 30 min, 1 h... that needs at most {@value #MAX_BUCKETS}), each task counted in the
 * bucket its {@code finishedAt} falls in. A bucket's rates divide by the seconds of the window it
 * covers, so a last bucket cut short by the window's end is not diluted.
 */
public final class Timeline {
    public static final int MAX_BUCKETS = 60;
    private static final long[] STEP_SECONDS = {1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21600, 43200, 86400};

    private Timeline() {
    }

    /** The bucket width in seconds for a window of {@code windowMs}. */
    public static long bucketSeconds(long windowMs) {
        for (long step : STEP_SECONDS) {
            if (ceilDiv(windowMs, step * 1000) <= MAX_BUCKETS) return step;
        }
        long days = ceilDiv(windowMs, MAX_BUCKETS * 86_400_000L);
        return days * 86_400;
    }

    public static RunFigures.TimelineFigures of(List<TaskRecord> tasks, long startMs, long endMs) {
        long windowMs = Math.max(0, endMs - startMs);
        long width = bucketSeconds(windowMs);
        String rule = "a task counts in the bucket of its finishedAt; rates divide by the seconds the bucket covers";
        if (tasks.isEmpty()) return new RunFigures.TimelineFigures(startMs, width, rule, List.of());
        int n = (int) Math.max(1, ceilDiv(windowMs, width * 1000));
        long[] count = new long[n], scan = new long[n], hash = new long[n], events = new long[n], bytes = new long[n], hashes = new long[n];
        for (TaskRecord t : tasks) {
            long offset = t.finishedAt() - startMs;
            int i = (int) Math.min(n - 1, Math.max(0, Math.floorDiv(offset, width * 1000)));
            count[i]++;
            if ("scan".equals(t.kind())) scan[i]++;
            if ("hash".equals(t.kind())) hash[i]++;
            if (t.scan() != null) {
                events[i] += t.scan().events();
                bytes[i] += t.scan().bytes();
            }
            if (t.hash() != null) hashes[i] += t.hash().hashes();
        }
        List<RunFigures.Bucket> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long fromMs = i * width * 1000;
            double seconds = Math.max(0.001, Math.min(width * 1000, windowMs - fromMs) / 1000.0);
            buckets.add(new RunFigures.Bucket(i * width, RunStatistics.round3(seconds), count[i], scan[i], hash[i], events[i], bytes[i],
                    hashes[i], RunStatistics.round3(count[i] / seconds), RunStatistics.round3(events[i] / seconds),
                    RunStatistics.round3(bytes[i] / 1e6 / seconds), RunStatistics.round3(hashes[i] / seconds)));
        }
        return new RunFigures.TimelineFigures(startMs, width, rule, buckets);
    }

    private static long ceilDiv(long a, long b) {
        return Math.max(0, Math.floorDiv(a + b - 1, b));
    }
}
