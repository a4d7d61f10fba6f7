package batchpipe.aggregator.stats;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

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

    public static Map<String, Object> of(List<Map<String, Object>> tasks, long startMs, long endMs) {
        Map<String, Object> timeline = new LinkedHashMap<>();
        long windowMs = Math.max(0, endMs - startMs);
        long width = bucketSeconds(windowMs);
        timeline.put("start", startMs);
        timeline.put("bucketSeconds", width);
        timeline.put("rule", "a task counts in the bucket of its finishedAt; rates divide by the seconds the bucket covers");
        if (tasks.isEmpty()) {
            timeline.put("buckets", List.of());
            return timeline;
        }
        int n = (int) Math.max(1, ceilDiv(windowMs, width * 1000));
        long[] count = new long[n], scan = new long[n], hash = new long[n], events = new long[n], bytes = new long[n], hashes = new long[n];
        for (Map<String, Object> t : tasks) {
            long offset = RunStatistics.asLong(t.get("finishedAt")) - startMs;
            int i = (int) Math.min(n - 1, Math.max(0, Math.floorDiv(offset, width * 1000)));
            count[i]++;
            if ("scan".equals(t.get("kind"))) scan[i]++;
            if ("hash".equals(t.get("kind"))) hash[i]++;
            events[i] += RunStatistics.asLong(t.get("events"));
            bytes[i] += RunStatistics.asLong(t.get("bytes"));
            hashes[i] += RunStatistics.asLong(t.get("hashes"));
        }
        List<Map<String, Object>> buckets = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            long fromMs = i * width * 1000;
            double seconds = Math.max(0.001, Math.min(width * 1000, windowMs - fromMs) / 1000.0);
            Map<String, Object> b = new LinkedHashMap<>();
            b.put("fromSecond", i * width);
            b.put("seconds", RunStatistics.round3(seconds));
            b.put("tasks", count[i]);
            b.put("scanTasks", scan[i]);
            b.put("hashTasks", hash[i]);
            b.put("events", events[i]);
            b.put("bytes", bytes[i]);
            b.put("hashes", hashes[i]);
            b.put("tasksPerSecond", RunStatistics.round3(count[i] / seconds));
            b.put("eventsPerSecond", RunStatistics.round3(events[i] / seconds));
            b.put("uncompressedMBPerSecond", RunStatistics.round3(bytes[i] / 1e6 / seconds));
            b.put("hashesPerSecond", RunStatistics.round3(hashes[i] / seconds));
            buckets.add(b);
        }
        timeline.put("buckets", buckets);
        return timeline;
    }

    private static long ceilDiv(long a, long b) {
        return Math.max(0, Math.floorDiv(a + b - 1, b));
    }
}
