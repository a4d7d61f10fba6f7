package batchpipe.common.run;

import batchpipe.common.table.TableKeys;
import batchpipe.common.table.RunPartitions;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's record ({@code run#<runId> / run}): written by the producer before any task is sent, then
 * updated in place (enqueued, complete shards, the completion claim, the final status). Attribute names
 * and number forms are those runs have always had, so earlier runs read back the same.
 *
 * @param spec              the run spec as the producer accepted it, in its JSON form ({@code RunSpec.toJson}; a run
 *                          stored before kept the spec as its event gave it, which {@code RunSpec.fromJson} reads the same)
 * @param hashesPlanned     passwords to hash (batches x batch size)
 * @param createdAt         when the producer created the record (epoch ms), before listing and sending
 * @param status            {@code running}, {@code empty}, {@code enqueue-failed} or {@code complete}
 * @param shards            how many progress shards count its tasks
 * @param enqueued          tasks SQS accepted; null until the producer has sent them all (or failed)
 * @param enqueueError      why sending stopped, for status {@code enqueue-failed}
 * @param completeShards    the shards whose tasks have all been counted
 * @param completionSentBy  the task whose count completed the run and whose worker notified the aggregator
 * @param completionSentAt  when that worker claimed the notification (epoch ms)
 * @param sendFinishedAt    when the producer had sent its last task (epoch ms): planning is createdAt to this;
 *                          null until then, and on runs stored before it was kept
 * @param host              the machine a local run's functions ran on, as the producer saw it when it planned
 *                          the run; null on Lambda and on runs stored before it was kept
 * @param sweepId           the sweep the run is one configuration of ({@code ./batchpipe sweep}), from the spec's
 *                          {@code sweepId}; null for a run of its own and on runs stored before sweeps
 * @param partitions        how many partition keys hold the run's items ({@link RunPartitions}); null on runs
 *                          stored before partitions, whose items are all on {@code run#<runId>}
 * @param planning          where planning has got while the run is being planned ({@link PlanCursor}); null
 *                          once every page is planned, and on runs planned before planning was paged. While
 *                          it is there {@code shards} is not yet known (stored as absent) and the run cannot complete
 */
public record RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                        String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                        String completionSentBy, Long completionSentAt, Long sendFinishedAt, RunHost host, String sweepId,
                        Integer partitions, PlanCursor planning) {

    /** A record of the single-key layout, planned in one go. */
    public RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                     String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                     String completionSentBy, Long completionSentAt, Long sendFinishedAt, RunHost host, String sweepId) {
        this(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, sendFinishedAt, host, sweepId, null, null);
    }

    /** A record of no sweep and no recorded machine, in the layout given. */
    public RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                     String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                     String completionSentBy, Long completionSentAt, Long sendFinishedAt, Integer partitions, PlanCursor planning) {
        this(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, sendFinishedAt, null, null, partitions, planning);
    }

    /** A record of no sweep. */
    public RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                     String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                     String completionSentBy, Long completionSentAt, Long sendFinishedAt, RunHost host) {
        this(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, sendFinishedAt, host, null, null, null);
    }

    /** A record without the machine it ran on (a run on Lambda), of no sweep. */
    public RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                     String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                     String completionSentBy, Long completionSentAt, Long sendFinishedAt) {
        this(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, sendFinishedAt, null, null, null, null);
    }

    /** A record without the end of sending. */
    public RunRecord(String runId, String label, String spec, Planned planned, long hashesPlanned, long createdAt,
                     String status, int shards, Long enqueued, String enqueueError, List<String> completeShards,
                     String completionSentBy, Long completionSentAt) {
        this(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, null, null, null, null, null);
    }

    /** A new run's record, as the producer writes it. */
    public static RunRecord planned(String runId, String label, String spec, Planned planned, long hashesPlanned,
                                    long createdAt, int shards) {
        return planned(runId, label, spec, planned, hashesPlanned, createdAt, shards, null);
    }

    /** A new run's record, one configuration of the sweep {@code sweepId} (null: of none). */
    public static RunRecord planned(String runId, String label, String spec, Planned planned, long hashesPlanned,
                                    long createdAt, int shards, String sweepId) {
        return new RunRecord(runId, label, spec, planned, hashesPlanned, createdAt, planned.total() == 0 ? "empty" : "running",
                shards, null, null, List.of(), null, null, null, null, sweepId, null, null);
    }

    /**
     * A run about to be planned page by page over {@code partitions} keys: nothing planned yet, its cursor at the
     * start; {@code sweepId} as in {@link #planned}.
     */
    public static RunRecord planning(String runId, String label, String spec, long hashesPlanned, long createdAt, int partitions,
                                     String sweepId) {
        return new RunRecord(runId, label, spec, new Planned(0, 0, 0), hashesPlanned, createdAt, "running", 0, null, null,
                List.of(), null, null, null, null, sweepId, partitions, PlanCursor.START);
    }

    /** {@link #planning(String, String, String, long, long, int, String)} of no sweep. */
    public static RunRecord planning(String runId, String label, String spec, long hashesPlanned, long createdAt, int partitions) {
        return planning(runId, label, spec, hashesPlanned, createdAt, partitions, null);
    }

    /** Where its items are. */
    public RunPartitions layout() {
        return RunPartitions.of(runId, partitions);
    }

    /** This record with the machine the run's functions run on (a local run). */
    public RunRecord withHost(RunHost runHost) {
        return new RunRecord(runId, label, spec, planned, hashesPlanned, createdAt, status, shards, enqueued, enqueueError, completeShards,
                completionSentBy, completionSentAt, sendFinishedAt, runHost, sweepId, partitions, planning);
    }

    public Map<String, AttributeValue> toItem() {
        ItemWriter item = new ItemWriter();
        item.putAll(TableKeys.key(runId, TableKeys.RUN_SK));
        Map<String, AttributeValue> plannedCounts = new LinkedHashMap<>();
        plannedCounts.put("scan", AttributeValue.fromN(Long.toString(planned.scan())));
        plannedCounts.put("hash", AttributeValue.fromN(Long.toString(planned.hash())));
        plannedCounts.put("total", AttributeValue.fromN(Long.toString(planned.total())));
        item.put("runId", runId).put("label", label).put("spec", spec).put("planned", AttributeValue.fromM(plannedCounts))
                .put("hashesPlanned", hashesPlanned).put("createdAt", createdAt).put("status", status)
                // while planning, the shard count is not known: absent, so that no count can find the run complete
                .put("shards", planning == null ? shards : null).put("partitions", partitions)
                .put("planning", planning == null ? null : planning.toAttribute())
                .put("enqueued", enqueued).put("enqueueError", enqueueError)
                .put("completionSentBy", completionSentBy).put("completionSentAt", completionSentAt)
                .put("sendFinishedAt", sendFinishedAt).put("sweepId", sweepId);
        if (completeShards != null && !completeShards.isEmpty()) {
            item.put("completeShards", AttributeValue.fromSs(completeShards));
        }
        if (host != null) item.putAll(Map.of("host", host.toAttribute()));
        return item.item();
    }

    public static RunRecord fromItem(Map<String, AttributeValue> stored) {
        ItemReader item = new ItemReader(stored, "run record");
        Map<String, AttributeValue> plannedCounts = item.map("planned");
        Planned planned;
        if (plannedCounts == null) {
            planned = new Planned(0, 0, 0);
        } else {
            ItemReader p = new ItemReader(plannedCounts, "run record planned");
            planned = new Planned(p.longOr("scan", 0), p.longOr("hash", 0), p.longOr("total", 0));
        }
        List<String> complete = item.strings("completeShards");
        return new RunRecord(item.requiredString("runId"), item.string("label"), item.string("spec"), planned,
                item.longOr("hashesPlanned", 0), item.longOr("createdAt", 0), item.string("status"),
                Math.toIntExact(item.longOr("shards", 0)), item.longOrNull("enqueued"), item.string("enqueueError"),
                complete == null ? List.of() : complete, item.string("completionSentBy"), item.longOrNull("completionSentAt"),
                item.longOrNull("sendFinishedAt"), RunHost.fromAttribute(item.map("host")), item.string("sweepId"),
                item.intOrNull("partitions"), item.map("planning") == null ? null : PlanCursor.fromAttribute(item.map("planning")));
    }
}
