package batchpipe.aggregator.stats;

import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The run's countBy: the tasks' counts added value by value, per path, in bounded memory. Each task
 * record holds at most 100 values a path, but a run of a million tasks over a field such as a user id
 * could name a hundred million between them. While a path has at most {@code maxValues} distinct values
 * its counts are exact; when it passes {@code 2 x maxValues}, the values with the smallest counts are
 * dropped until {@code maxValues} remain, and every value that enters afterwards starts from the largest
 * count dropped so far (the path's floor), as the Space-Saving algorithm does: a value's count can then
 * over-state its true count by at most the floor, never under-state it, and the most frequent values stay.
 * The report says so for such a path under {@code countByAccuracy} ({@link #overCounts()}).
 */
public final class CountByMerge {
    /** The worker's own exact limit per path and scan (BoundedValueCounts). */
    public static final int MAX_VALUES_PER_PATH = 65_000;

    private final int maxValues;
    private final Map<String, Path> paths = new TreeMap<>();

    private static final class Path {
        final Map<String, long[]> counts = new HashMap<>();
        long floor;
    }

    public CountByMerge(int maxValues) {
        if (maxValues < 1) throw new IllegalArgumentException("maxValues must be at least 1, got " + maxValues);
        this.maxValues = maxValues;
    }

    public void add(Map<String, Map<String, Long>> countBy) {
        countBy.forEach((name, values) -> {
            Path path = paths.computeIfAbsent(name, k -> new Path());
            for (Map.Entry<String, Long> value : values.entrySet()) {
                long[] count = path.counts.get(value.getKey());
                if (count == null) path.counts.put(value.getKey(), new long[] {path.floor + value.getValue()});
                else count[0] += value.getValue();
            }
            if (path.counts.size() > 2L * maxValues) trim(path);
        });
    }

    /** Keeps the {@code maxValues} largest counts (ties broken by value, so the result is deterministic). */
    private void trim(Path path) {
        long[] counts = path.counts.values().stream().mapToLong(c -> c[0]).toArray();
        Arrays.sort(counts);
        long threshold = counts[counts.length - maxValues]; // the smallest count kept
        long dropped = 0;
        var values = path.counts.entrySet().stream()
                .filter(e -> e.getValue()[0] == threshold).map(Map.Entry::getKey).sorted().toList();
        long keepAtThreshold = maxValues - path.counts.values().stream().filter(c -> c[0] > threshold).count();
        for (var it = path.counts.entrySet().iterator(); it.hasNext(); ) {
            var e = it.next();
            if (e.getValue()[0] < threshold) {
                dropped = Math.max(dropped, e.getValue()[0]);
                it.remove();
            }
        }
        for (int i = (int) keepAtThreshold; i < values.size(); i++) {
            path.counts.remove(values.get(i));
            dropped = Math.max(dropped, threshold);
        }
        path.floor = Math.max(path.floor, dropped);
    }

    /** Per path, value -> count, both in order. */
    public Map<String, Map<String, Long>> merged() {
        Map<String, Map<String, Long>> merged = new TreeMap<>();
        paths.forEach((name, path) -> {
            Map<String, Long> values = new TreeMap<>();
            path.counts.forEach((value, count) -> values.put(value, count[0]));
            merged.put(name, values);
        });
        return merged;
    }

    /** The paths whose merge passed its bound, with the most any of their counts may over-state. */
    public Map<String, Long> overCounts() {
        Map<String, Long> over = new TreeMap<>();
        paths.forEach((name, path) -> {
            if (path.floor > 0) over.put(name, path.floor);
        });
        return over;
    }
}
