package batchpipe.producer.spec;

import batchpipe.common.task.ScanMatch;

import java.util.List;

/**
 * What a run should do: the event of the producer (schedule input, console, CLI).
 *
 * @param runId   null when the producer should make a new time-sortable id
 * @param sweepId the sweep this run is one configuration of, stored on the run record; null for a run of its own
 */
public record RunSpec(String runId, String label, List<ScanSource> scan, HashSpec hash, Integer toleratedFailurePercent,
                      String sweepId) {
    public RunSpec {
        scan = scan == null ? List.of() : List.copyOf(scan);
    }

    /** A spec of no sweep. */
    public RunSpec(String runId, String label, List<ScanSource> scan, HashSpec hash, Integer toleratedFailurePercent) {
        this(runId, label, scan, hash, toleratedFailurePercent, null);
    }

    /** A spec without a failure tolerance: the report states failures without judging them. */
    public RunSpec(String runId, String label, List<ScanSource> scan, HashSpec hash) {
        this(runId, label, scan, hash, null);
    }

    /** The objects under {@code prefix} in {@code bucket} (optionally ending in {@code suffix}), at most {@code maxObjects}. */
    public record ScanSource(String bucket, String prefix, String suffix, Long maxObjects, List<String> countBy,
                             ScanMatch match) {
    }

    /** {@code batches} hash tasks of {@code batchSize} passwords each at bcrypt {@code cost}. */
    public record HashSpec(int batches, int batchSize, int cost, String prefix) {
        public static final String DEFAULT_PREFIX = "password_";
    }
}
