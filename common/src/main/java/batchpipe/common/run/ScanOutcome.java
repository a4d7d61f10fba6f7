package batchpipe.common.run;

import java.util.List;
import java.util.Map;

/**
 * What scanning one object found.
 *
 * @param malformedLines   line numbers of the first malformed lines (a bounded sample)
 * @param bytes            uncompressed bytes read
 * @param countBy          per countBy path, the most frequent values and their events (bounded, see the worker's CountByForRecord)
 * @param countByDistinct  per path, the distinct values seen (an estimate where {@code countByAccuracy} says so)
 * @param countByOther     per path, the events under values not kept; null when every value was kept
 * @param countByAccuracy  per path, how it was counted; null when every path was counted exactly
 * @param matches          events matching the spec's match; null without one
 */
public record ScanOutcome(String bucket, String key, long events, long malformed, List<Long> malformedLines,
                          long oversizedLines, long bytes, long compressedBytes,
                          Map<String, Map<String, Long>> countBy, Map<String, Long> countByDistinct,
                          Map<String, Long> countByOther, Map<String, CountAccuracy> countByAccuracy, Long matches) {
}
