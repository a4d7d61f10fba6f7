package batchpipe.worker.scan;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonFields;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one scan found.
 *
 * @param events          lines that are exactly one JSON object
 * @param malformed       non-blank lines that are not (oversized lines included)
 * @param malformedLines  the first {@link #MAX_MALFORMED_LINES} malformed line numbers, 1-based, ascending;
 *                        every line counts in the numbering, blank ones included
 * @param oversizedLines  lines longer than {@link ScanOptions#maxLineBytes()}
 * @param bytes           uncompressed bytes scanned
 * @param compressedBytes bytes read from the source
 * @param countBy         per requested path, value to count; both levels sorted. Exact for every path not in
 *                        {@code approximate}; for those, the most frequent values only, over-stated by up to
 *                        their {@link ApproximateCounts#overCounts()}
 * @param matches         events satisfying the requested match, null when none was requested
 * @param approximate     the paths whose values were too many to count exactly, sorted; empty when all are exact
 */
public record ScanResult(long events, long malformed, List<Long> malformedLines, long oversizedLines, long bytes,
                         long compressedBytes, Map<String, Map<String, Long>> countBy, Long matches,
                         Map<String, ApproximateCounts> approximate) {

    public static final int MAX_MALFORMED_LINES = 10;

    public ScanResult {
        malformedLines = List.copyOf(malformedLines);
        TreeMap<String, Map<String, Long>> sorted = new TreeMap<>();
        countBy.forEach((path, counts) -> sorted.put(path, Collections.unmodifiableMap(new TreeMap<>(counts))));
        countBy = Collections.unmodifiableMap(sorted);
        approximate = Collections.unmodifiableMap(new TreeMap<>(approximate));
    }

    /** A result whose counts are all exact. */
    public ScanResult(long events, long malformed, List<Long> malformedLines, long oversizedLines, long bytes,
                      long compressedBytes, Map<String, Map<String, Long>> countBy, Long matches) {
        this(events, malformed, malformedLines, oversizedLines, bytes, compressedBytes, countBy, matches, Map.of());
    }

    /**
     * This result as compact JSON, keys in declaration order, {@code matches} omitted when null and
     * {@code approximate} when empty (so exact results print as they always did).
     */
    public String toJson() {
        JsonFields json = new JsonFields()
                .put("events", events)
                .put("malformed", malformed)
                .put("malformedLines", malformedLines)
                .put("oversizedLines", oversizedLines)
                .put("bytes", bytes)
                .put("compressedBytes", compressedBytes)
                .put("countBy", countBy)
                .putPresent("matches", matches);
        if (!approximate.isEmpty()) {
            JsonFields paths = new JsonFields();
            approximate.forEach((path, a) -> paths.put(path, new JsonFields()
                    .put("events", a.events())
                    .put("distinctEstimate", a.distinctEstimate())
                    .put("overCounts", a.overCounts())));
            json.put("approximate", paths);
        }
        return Json.write(json);
    }
}
