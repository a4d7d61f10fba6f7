package batchpipe.common.spec;

import batchpipe.common.json.Json;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;
import batchpipe.common.task.ScanMatch;
import batchpipe.common.task.ScanTask;

import java.util.List;

/**
 * What a run should do: the event of the producer (schedule input, console, CLI), and what the producer stores on
 * the run record. Its JSON form ({@link #toJson}) is the one a user writes, with the planning defaults filled in
 * and no field that is absent written as null; {@link RunSpecParser} reads it back, and {@link #fromJson} reads a
 * stored one.
 *
 * @param runId   null when the producer should make a new time-sortable id
 * @param sweepId the sweep this run is one configuration of, stored on the run record; null for a run of its own
 */
public record RunSpec(String runId, String label, List<ScanSource> scan, HashSpec hash, Integer toleratedFailurePercent,
                      String sweepId) implements JsonWritable {
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

    public RunSpec withRunId(String runId) {
        return new RunSpec(runId, label, scan, hash, toleratedFailurePercent, sweepId);
    }

    public RunSpec withLabel(String label) {
        return new RunSpec(runId, label, scan, hash, toleratedFailurePercent, sweepId);
    }

    public RunSpec withSweepId(String sweepId) {
        return new RunSpec(runId, label, scan, hash, toleratedFailurePercent, sweepId);
    }

    /** The spec as JSON text: what the producer's event carries and what it stores on the run record. */
    public String toJson() {
        return Json.write(this);
    }

    @Override
    public Object toJsonValue() {
        return new JsonFields().putPresent("runId", runId).putPresent("label", label).putPresent("scan", scan.isEmpty() ? null : scan)
                .putPresent("hash", hash).putPresent("toleratedFailurePercent", toleratedFailurePercent).putPresent("sweepId", sweepId);
    }

    /**
     * A spec a producer stored on a run record, read by its shape only ({@link RunSpecParser#stored()}): the rules it
     * met when it was stored are not asked of it again.
     *
     * @throws InvalidRunSpecException when it is not a run spec's JSON form
     */
    public static RunSpec fromJson(String json) {
        return RunSpecParser.stored().parse(json);
    }

    /**
     * The objects under {@code prefix} in {@code bucket} (optionally ending in {@code suffix}), at most {@code maxObjects}.
     * An absent prefix is the whole bucket, an absent countBy {@link ScanTask#DEFAULT_COUNT_BY}.
     */
    public record ScanSource(String bucket, String prefix, String suffix, Long maxObjects, List<String> countBy,
                             ScanMatch match) implements JsonWritable {
        public ScanSource {
            prefix = prefix == null ? "" : prefix;
            countBy = countBy == null ? ScanTask.DEFAULT_COUNT_BY : List.copyOf(countBy);
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("bucket", bucket).put("prefix", prefix).putPresent("suffix", suffix)
                    .putPresent("maxObjects", maxObjects).put("countBy", countBy).putPresent("match", match);
        }
    }

    /**
     * {@code batches} hash tasks of {@code batchSize} passwords each at bcrypt {@code cost}, the passwords {@code prefix}
     * and an index ({@link #DEFAULT_PREFIX} when absent).
     */
    public record HashSpec(int batches, int batchSize, int cost, String prefix) implements JsonWritable {
        public static final String DEFAULT_PREFIX = "password_";

        public HashSpec {
            prefix = prefix == null ? DEFAULT_PREFIX : prefix;
        }

        /** The index of the first password of batch {@code batch} (from 1): the batches count up from 1 without a gap. */
        public long firstIndex(int batch) {
            return (long) (batch - 1) * batchSize + 1;
        }

        @Override
        public Object toJsonValue() {
            return new JsonFields().put("batches", batches).put("batchSize", batchSize).put("cost", cost).put("prefix", prefix);
        }
    }
}
