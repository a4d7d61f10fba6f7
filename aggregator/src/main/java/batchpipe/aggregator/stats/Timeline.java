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

    /**
     * The timeline's inputs, a task at a time, as five primitive columns: the window the buckets cut is
     * known only once the last task is in, and the tasks themselves are not kept.
     */
    public static final class Fold {
        private static final int KIND_OTHER = 0, KIND_SCAN = 1, KIND_HASH = 2;
        private final LongColumn finishedAt = new LongColumn();
        private final IntColumn kinds = new IntColumn();
        private final LongColumn events = new LongColumn(), bytes = new LongColumn(), hashes = new LongColumn();

        public void add(TaskRecord t) {
            finishedAt.add(t.finishedAt());
            kinds.add("scan".equals(t.kind()) ? KIND_SCAN : "hash".equals(t.kind()) ? KIND_HASH : KIND_OTHER);
            events.add(t.scan() == null ? 0 : t.scan().events());
            bytes.add(t.scan() == null ? 0 : t.scan().bytes());
            hashes.add(t.hash() == null ? 0 : t.hash().hashes());
        }

        /** The buckets of the window {@code startMs} to {@code endMs}; a task outside it counts in the nearest bucket. */
        public RunFigures.TimelineFigures figures(long startMs, long endMs) {
            long windowMs = Math.max(0, endMs - startMs);
            long width = bucketSeconds(windowMs);
            String rule = "a task counts in the bucket of its finishedAt; rates divide by the seconds the bucket covers";
            if (finishedAt.size() == 0) return new RunFigures.TimelineFigures(startMs, width, rule, List.of());
            int n = (int) Math.max(1, ceilDiv(windowMs, width * 1000));
            long[] count = new long[n], scan = new long[n], hash = new long[n], ev = new long[n], by = new long[n], hs = new long[n];
            for (int t = 0; t < finishedAt.size(); t++) {
                long offset = finishedAt.get(t) - startMs;
                int i = (int) Math.min(n - 1, Math.max(0, Math.floorDiv(offset, width * 1000)));
                count[i]++;
                if (kinds.get(t) == KIND_SCAN) scan[i]++;
                if (kinds.get(t) == KIND_HASH) hash[i]++;
                ev[i] += events.get(t);
                by[i] += bytes.get(t);
                hs[i] += hashes.get(t);
            }
            List<RunFigures.Bucket> buckets = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                long fromMs = i * width * 1000;
                double seconds = Math.max(0.001, Math.min(width * 1000, windowMs - fromMs) / 1000.0);
                buckets.add(new RunFigures.Bucket(i * width, FigureRules.round3(seconds), count[i], scan[i], hash[i], ev[i], by[i], hs[i],
                        FigureRules.round3(count[i] / seconds), FigureRules.round3(ev[i] / seconds),
                        FigureRules.round3(by[i] / 1e6 / seconds), FigureRules.round3(hs[i] / seconds)));
            }
            return new RunFigures.TimelineFigures(startMs, width, rule, buckets);
        }
    }

    private static long ceilDiv(long a, long b) {
        return Math.max(0, Math.floorDiv(a + b - 1, b));
    }
}
