package batchpipe.worker.record;

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
 */
public final class CountByForRecord {
    public static final int TOP_VALUES = 100;
    public static final int MAX_VALUE_LENGTH = 128;

    /** The record's {@code countBy}, {@code countByOther} and {@code countByDistinct} fields. */
    public record Fitted(Map<String, Map<String, Long>> countBy, Map<String, Long> other, Map<String, Long> distinct) {
        public boolean truncated() {
            return other.values().stream().anyMatch(n -> n > 0);
        }
    }

    private CountByForRecord() {
    }

    public static Fitted fit(Map<String, Map<String, Long>> countBy) {
        Map<String, Map<String, Long>> kept = new TreeMap<>();
        Map<String, Long> other = new TreeMap<>();
        Map<String, Long> distinct = new TreeMap<>();
        countBy.forEach((path, values) -> {
            List<Map.Entry<String, Long>> sorted = new ArrayList<>(values.entrySet());
            sorted.sort(Map.Entry.<String, Long>comparingByValue(Comparator.reverseOrder()).thenComparing(Map.Entry.comparingByKey()));
            Map<String, Long> top = new LinkedHashMap<>();
            long rest = 0;
            for (int i = 0; i < sorted.size(); i++) {
                Map.Entry<String, Long> e = sorted.get(i);
                if (i < TOP_VALUES) {
                    top.merge(cut(e.getKey()), e.getValue(), Long::sum);
                } else {
                    rest += e.getValue();
                }
            }
            kept.put(path, top);
            other.put(path, rest);
            distinct.put(path, (long) values.size());
        });
        return new Fitted(kept, other, distinct);
    }

    private static String cut(String value) {
        return value.length() <= MAX_VALUE_LENGTH ? value : value.substring(0, MAX_VALUE_LENGTH) + "…";
    }
}
