package batchpipe.worker.scan;

import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * How one countBy path was counted once its values outgrew the exact budget of {@code BoundedValueCounts}:
 * its counts in {@link ScanResult#countBy()} are then those of a heavy-hitters sketch, the values it kept.
 *
 * @param events           events that had a value at this path (exact)
 * @param distinctEstimate distinct values, estimated (HyperLogLog, 0.81 % standard error)
 * @param overCounts       for each value of this path in {@link ScanResult#countBy()}: by how much its count
 *                         may exceed the true count ({@code count - overCount <= true <= count}); sorted
 */
public record ApproximateCounts(long events, long distinctEstimate, Map<String, Long> overCounts) {

    public ApproximateCounts {
        overCounts = Collections.unmodifiableMap(new TreeMap<>(overCounts));
    }
}
