package batchpipe.worker.record;

import batchpipe.common.run.CountAccuracy;
import batchpipe.worker.scan.ApproximateCounts;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Fits a scan's countBy into a task record. A DynamoDB item holds at most 400 KB, and a field such as a
 * user id can have millions of values, so each path keeps its {@value #TOP_VALUES} most frequent values
 * (ties broken by value, so the result is deterministic), values longer than {@value #MAX_VALUE_LENGTH}
 * characters are cut, and what was left out is accounted for: the events under the values not kept
 * ({@code countByOther}) and the number of distinct values ({@code countByDistinct}). At most 16 paths
 * x 100 values x ~150 bytes stays far below the item limit.
 *
 * <p>A path the scan counted approximately ({@link ApproximateCounts}) says so in {@code countByAccuracy},
 * written only when some path is not exact, for every path: its counts may over-state by up to
 * {@code maxOverCount} (the largest error among the values kept), its {@code countByDistinct} is an
 * estimate, and its {@code countByOther} (events minus the kept counts) may under-state by as much as
 * those counts over-state.
 */
public final class CountByForRecord {
    public static final int TOP_VALUES = 100;
    public static final int MAX_VALUE_LENGTH = 128;

    /** The record's {@code countBy}, {@code countByOther}, {@code countByDistinct} and {@code countByAccuracy} fields. */
    public record Fitted(Map<String, Map<String, Long>> countBy, Map<String, Long> other, Map<String, Long> distinct,
                         Map<String, CountAccuracy> accuracy) {
        public boolean truncated() {
            return other.values().stream().anyMatch(n -> n > 0);
        }

        public boolean exact() {
            return accuracy.values().stream().allMatch(CountAccuracy::exact);
        }
    }

    private CountByForRecord() {
    }

    /** Counts that are all exact. */
    public static Fitted fit(Map<String, Map<String, Long>> countBy) {
        return fit(countBy, Map.of());
    }

    public static Fitted fit(Map<String, Map<String, Long>> countBy, Map<String, ApproximateCounts> approximate) {
        Map<String, Map<String, Long>> kept = new TreeMap<>();
        Map<String, Long> other = new TreeMap<>();
        Map<String, Long> distinct = new TreeMap<>();
        Map<String, CountAccuracy> accuracy = new TreeMap<>();
        countBy.forEach((path, values) -> {
            ApproximateCounts approximateCounts = approximate.get(path);
            List<Map.Entry<String, Long>> sorted = new ArrayList<>(values.entrySet());
            sorted.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
            Map<String, Long> top = new LinkedHashMap<>();
            Map<String, Long> topOverCounts = new LinkedHashMap<>();
            long keptEvents = 0;
            long rest = 0;
            for (int i = 0; i < sorted.size(); i++) {
                Map.Entry<String, Long> e = sorted.get(i);
                if (i < TOP_VALUES) {
                    String value = cut(e.getKey());
                    top.merge(value, e.getValue(), Long::sum);
                    keptEvents += e.getValue();
                    if (approximateCounts != null) {
                        topOverCounts.merge(value, approximateCounts.overCounts().getOrDefault(e.getKey(), 0L), Long::sum);
                    }
                } else {
                    rest += e.getValue();
                }
            }
            kept.put(path, top);
            if (approximateCounts == null) {
                other.put(path, rest);
                distinct.put(path, (long) values.size());
                accuracy.put(path, CountAccuracy.EXACT);
            } else {
                // the sketch's values are not all the values: the rest is what the exact total leaves
                other.put(path, Math.max(0, approximateCounts.events() - keptEvents));
                distinct.put(path, approximateCounts.distinctEstimate());
                long maxOverCount = topOverCounts.values().stream().mapToLong(Long::longValue).max().orElse(0);
                accuracy.put(path, new CountAccuracy(false, maxOverCount, false));
            }
        });
        return new Fitted(kept, other, distinct, accuracy);
    }

    private static String cut(String value) {
        return value.length() <= MAX_VALUE_LENGTH ? value : value.substring(0, MAX_VALUE_LENGTH) + "…";
    }
}
