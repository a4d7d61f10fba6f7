package batchpipe.common.run;

import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.TreeMap;

/**
 * A task's final record ({@code run#<runId> / task#<taskId>}), written once by the worker that finished
 * it (or by the dead-letter recorder for a task that never finished) and read by the aggregator. Its item
 * has the attribute names and number forms records have always had, so runs stored before this type
 * existed read back the same ({@code TaskRecordTest} round-trips items of the earlier code).
 *
 * @param kind        {@code scan}, {@code hash}, or {@code unknown} when the dead-lettered message was unreadable
 * @param reason      why it was rejected or failed; null when done
 * @param enqueuedAt  when the producer sent it (epoch ms); null when the message did not say
 * @param startedAt   when the worker started it (for a dead-letter record: when its books were closed)
 * @param durationMs  finishedAt - startedAt
 * @param attempt     the SQS receive that finished it
 * @param invocation  the worker invocation; {@link WorkerInvocation#NONE} for a dead-letter record
 * @param writes      its DynamoDB writes; null for a dead-letter record
 * @param scan        a scan's result; null for a hash task or a task that did not scan
 * @param hash        a hash batch's result; null for a scan task or a batch that did not hash
 * @param recordedBy  who wrote it when that was not a worker ({@code dead-letter recorder})
 * @param deadLetter  set when its message went through the dead-letter queue
 * @param sentAt      when SQS accepted the message that finished it (its {@code SentTimestamp}, epoch ms);
 *                    null on records written before it was kept, or when SQS did not say
 * @param progressShard the progress shard the task was counted in, as its message named it; null on records
 *                    written before it was kept, and for runs planned in one go whose messages name no shard
 *                    (their shard is the task id's hash over the run's shard count: {@link #progressShardOr})
 */
public record TaskRecord(String runId, String taskId, String kind, TaskStatus status, String reason,
                         Long enqueuedAt, long startedAt, long finishedAt, long durationMs, Integer attempt,
                         WorkerInvocation invocation, WriteTimes writes, ScanOutcome scan, HashOutcome hash,
                         String recordedBy, DeadLetter deadLetter, Long sentAt, Integer progressShard) {

    public TaskRecord {
        if (invocation == null) invocation = WorkerInvocation.NONE;
    }

    /**
     * A record built component by component, by name: eighteen positional values, seven of them nullable
     * numbers or strings, were too easy to shift by one. What is not set is absent (null), or 0 for
     * the times; {@code durationMs} is {@code finishedAt - startedAt} unless set.
     */
    public static Builder builder() {
        return new Builder();
    }

    /** A builder holding this record's components, to change some of them. */
    public Builder toBuilder() {
        return new Builder().runId(runId).taskId(taskId).kind(kind).status(status).reason(reason).enqueuedAt(enqueuedAt)
                .startedAt(startedAt).finishedAt(finishedAt).durationMs(durationMs).attempt(attempt).invocation(invocation)
                .writes(writes).scan(scan).hash(hash).recordedBy(recordedBy).deadLetter(deadLetter).sentAt(sentAt)
                .progressShard(progressShard);
    }

    public boolean done() {
        return status == TaskStatus.DONE;
    }

    /** The same record with its DynamoDB writes stated (known only just before it is written). */
    public TaskRecord withWrites(WriteTimes writes) {
        return toBuilder().writes(writes).build();
    }

    /** The same record counted in progress shard {@code shard} (null: the shard its task id hashes to). */
    public TaskRecord withProgressShard(Integer shard) {
        return toBuilder().progressShard(shard).build();
    }

    /**
     * The progress shard that counted this task: the one its record names, or for a record that names none
     * (runs planned in one go, records written before the shard was kept) the task id's hash over the run's
     * {@code shards}, as the worker chose it for such runs.
     */
    public int progressShardOr(int shards) {
        return progressShard != null ? progressShard : ProgressShards.shardOf(taskId, shards);
    }

    /** The item in the single-key layout of earlier runs. */
    public Map<String, AttributeValue> toItem() {
        return toItem(RunPartitions.legacy(runId));
    }

    /** The item: its key in the run's layout and every attribute that has a value. */
    public Map<String, AttributeValue> toItem(RunPartitions layout) {
        ItemWriter item = new ItemWriter();
        item.putAll(layout.taskRecordKey(taskId));
        item.put("runId", runId).put("taskId", taskId).put("kind", kind).put("status", status.wireName())
                .put("reason", reason).put("enqueuedAt", enqueuedAt).put("startedAt", startedAt).put("finishedAt", finishedAt)
                .put("durationMs", durationMs).put("attempt", attempt);
        invocation.writeTo(item);
        if (writes != null) {
            item.put("ddbWriteCalls", writes.calls()).put("ddbWriteMsTotal", writes.msTotal()).put("ddbWriteMsMax", writes.msMax());
        }
        if (scan != null) {
            item.put("bucket", scan.bucket()).put("key", scan.key()).put("events", scan.events()).put("malformed", scan.malformed())
                    .put("malformedLines", scan.malformedLines()).put("oversizedLines", scan.oversizedLines())
                    .put("bytes", scan.bytes()).put("compressedBytes", scan.compressedBytes())
                    .put("countBy", scan.countBy()).put("countByDistinct", scan.countByDistinct())
                    .put("countByOther", scan.countByOther()).put("matches", scan.matches());
            if (scan.countByAccuracy() != null) {
                Map<String, AttributeValue> accuracy = new TreeMap<>();
                scan.countByAccuracy().forEach((path, a) -> accuracy.put(path, a.stored()));
                item.put("countByAccuracy", AttributeValue.fromM(accuracy));
            }
        }
        if (hash != null) item.put("hashes", hash.hashes()).put("cost", hash.cost());
        item.put("recordedBy", recordedBy);
        if (deadLetter != null) item.put("deadLetteredAt", deadLetter.at()).put("deadLetterReceives", deadLetter.receives());
        item.put("sentAt", sentAt);
        item.put("progressShard", progressShard);
        return item.item();
    }

    /** A stored task item; an attribute of the wrong type is an error naming the task and the attribute. */
    public static TaskRecord fromItem(Map<String, AttributeValue> stored) {
        String sk = stored.containsKey(TableKeys.SK) ? stored.get(TableKeys.SK).s() : "?";
        ItemReader item = new ItemReader(stored, "task record " + sk);
        ScanOutcome scan = null;
        if (item.has("bucket") || item.has("events")) {
            Map<String, CountAccuracy> accuracy = null;
            Map<String, AttributeValue> storedAccuracy = item.map("countByAccuracy");
            if (storedAccuracy != null) {
                accuracy = new TreeMap<>();
                for (Map.Entry<String, AttributeValue> path : storedAccuracy.entrySet()) {
                    accuracy.put(path.getKey(), CountAccuracy.read(path.getValue().m(), "task record " + sk + " countByAccuracy." + path.getKey()));
                }
            }
            scan = new ScanOutcome(item.string("bucket"), item.string("key"), item.longOr("events", 0), item.longOr("malformed", 0),
                    item.longs("malformedLines"), item.longOr("oversizedLines", 0), item.longOr("bytes", 0),
                    item.longOr("compressedBytes", 0), item.nestedCounts("countBy"), item.counts("countByDistinct"),
                    item.counts("countByOther"), accuracy, item.longOrNull("matches"));
        }
        HashOutcome hash = item.has("hashes") ? new HashOutcome(item.longOr("hashes", 0), Math.toIntExact(item.longOr("cost", 0))) : null;
        WriteTimes writes = item.has("ddbWriteCalls")
                ? new WriteTimes(item.longOr("ddbWriteCalls", 0), doubleOr(item, "ddbWriteMsTotal"), doubleOr(item, "ddbWriteMsMax"))
                : null;
        DeadLetter deadLetter = item.has("deadLetteredAt")
                ? new DeadLetter(item.longOr("deadLetteredAt", 0), Math.toIntExact(item.longOr("deadLetterReceives", 0))) : null;
        return builder().runId(item.requiredString("runId")).taskId(item.requiredString("taskId")).kind(item.string("kind"))
                .status(TaskStatus.fromWireName(item.requiredString("status"))).reason(item.string("reason"))
                .enqueuedAt(item.longOrNull("enqueuedAt")).startedAt(item.longOr("startedAt", 0)).finishedAt(item.longOr("finishedAt", 0))
                .durationMs(item.longOr("durationMs", 0)).attempt(item.intOrNull("attempt")).invocation(WorkerInvocation.readFrom(item))
                .writes(writes).scan(scan).hash(hash).recordedBy(item.string("recordedBy")).deadLetter(deadLetter)
                .sentAt(item.longOrNull("sentAt")).progressShard(item.intOrNull("progressShard")).build();
    }

    private static double doubleOr(ItemReader item, String name) {
        Double d = item.doubleOrNull(name);
        return d == null ? 0 : d;
    }

    /** A {@link TaskRecord}'s components, set by name; {@link #build} checks that the record names its run, task and status. */
    public static final class Builder {
        private String runId, taskId, kind, reason, recordedBy;
        private TaskStatus status;
        private Long enqueuedAt, durationMs, sentAt;
        private long startedAt, finishedAt;
        private Integer attempt, progressShard;
        private WorkerInvocation invocation;
        private WriteTimes writes;
        private ScanOutcome scan;
        private HashOutcome hash;
        private DeadLetter deadLetter;

        private Builder() {
        }

        public Builder runId(String runId) {
            this.runId = runId;
            return this;
        }

        public Builder taskId(String taskId) {
            this.taskId = taskId;
            return this;
        }

        public Builder kind(String kind) {
            this.kind = kind;
            return this;
        }

        public Builder status(TaskStatus status) {
            this.status = status;
            return this;
        }

        public Builder reason(String reason) {
            this.reason = reason;
            return this;
        }

        public Builder enqueuedAt(Long enqueuedAt) {
            this.enqueuedAt = enqueuedAt;
            return this;
        }

        public Builder startedAt(long startedAt) {
            this.startedAt = startedAt;
            return this;
        }

        public Builder finishedAt(long finishedAt) {
            this.finishedAt = finishedAt;
            return this;
        }

        /** Only where it is not {@code finishedAt - startedAt}: a stored record says what it says. */
        public Builder durationMs(long durationMs) {
            this.durationMs = durationMs;
            return this;
        }

        public Builder attempt(Integer attempt) {
            this.attempt = attempt;
            return this;
        }

        public Builder invocation(WorkerInvocation invocation) {
            this.invocation = invocation;
            return this;
        }

        public Builder writes(WriteTimes writes) {
            this.writes = writes;
            return this;
        }

        public Builder scan(ScanOutcome scan) {
            this.scan = scan;
            return this;
        }

        public Builder hash(HashOutcome hash) {
            this.hash = hash;
            return this;
        }

        public Builder recordedBy(String recordedBy) {
            this.recordedBy = recordedBy;
            return this;
        }

        public Builder deadLetter(DeadLetter deadLetter) {
            this.deadLetter = deadLetter;
            return this;
        }

        public Builder sentAt(Long sentAt) {
            this.sentAt = sentAt;
            return this;
        }

        public Builder progressShard(Integer progressShard) {
            this.progressShard = progressShard;
            return this;
        }

        public TaskRecord build() {
            // Its key and its counting depend on these three: a record without them could be neither stored nor read.
            if (runId == null || taskId == null || status == null) {
                throw new IllegalStateException("a task record needs its runId, taskId and status; got runId " + runId + ", taskId "
                        + taskId + ", status " + status);
            }
            return new TaskRecord(runId, taskId, kind, status, reason, enqueuedAt, startedAt, finishedAt,
                    durationMs != null ? durationMs : finishedAt - startedAt, attempt, invocation, writes, scan, hash, recordedBy,
                    deadLetter, sentAt, progressShard);
        }
    }
}
