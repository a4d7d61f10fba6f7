package batchpipe.worker.scan;

import batchpipe.common.json.Json;

import java.util.Collections;
import java.util.LinkedHashMap;
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
 * @param countBy         per requested path, value to count; both levels sorted
 * @param matches         events satisfying the requested match, null when none was requested
 */
public record ScanResult(long events, long malformed, List<Long> malformedLines, long oversizedLines, long bytes,
                         long compressedBytes, Map<String, Map<String, Long>> countBy, Long matches) {

    public static final int MAX_MALFORMED_LINES = 10;

    public ScanResult {
        malformedLines = List.copyOf(malformedLines);
        TreeMap<String, Map<String, Long>> sorted = new TreeMap<>();
        countBy.forEach((path, counts) -> sorted.put(path, Collections.unmodifiableMap(new TreeMap<>(counts))));
        countBy = Collections.unmodifiableMap(sorted);
    }

    /** This result as compact JSON, keys in declaration order, {@code matches} omitted when null. */
    public String toJson() {
        Map<String, Object> json = new LinkedHashMap<>();
        json.put("events", events);
        json.put("malformed", malformed);
        json.put("malformedLines", malformedLines);
        json.put("oversizedLines", oversizedLines);
        json.put("bytes", bytes);
        json.put("compressedBytes", compressedBytes);
        json.put("countBy", countBy);
        if (matches != null) {
            json.put("matches", matches);
        }
        return Json.write(json);
    }
}
