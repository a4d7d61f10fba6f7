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

    /** A record that does not say its progress shard. */
    public TaskRecord(String runId, String taskId, String kind, TaskStatus status, String reason,
                      Long enqueuedAt, long startedAt, long finishedAt, long durationMs, Integer attempt,
                      WorkerInvocation invocation, WriteTimes writes, ScanOutcome scan, HashOutcome hash,
                      String recordedBy, DeadLetter deadLetter, Long sentAt) {
        this(runId, taskId, kind, status, reason, enqueuedAt, startedAt, finishedAt, durationMs, attempt, invocation, writes,
                scan, hash, recordedBy, deadLetter, sentAt, null);
    }

    /** A record without the message's SentTimestamp. */
    public TaskRecord(String runId, String taskId, String kind, TaskStatus status, String reason,
                      Long enqueuedAt, long startedAt, long finishedAt, long durationMs, Integer attempt,
                      WorkerInvocation invocation, WriteTimes writes, ScanOutcome scan, HashOutcome hash,
                      String recordedBy, DeadLetter deadLetter) {
        this(runId, taskId, kind, status, reason, enqueuedAt, startedAt, finishedAt, durationMs, attempt, invocation, writes,
                scan, hash, recordedBy, deadLetter, null, null);
    }

    public boolean done() {
        return status == TaskStatus.DONE;
    }

    /** The same record with its DynamoDB writes stated (known only just before it is written). */
    public TaskRecord withWrites(WriteTimes writes) {
        return new TaskRecord(runId, taskId, kind, status, reason, enqueuedAt, startedAt, finishedAt, durationMs, attempt,
                invocation, writes, scan, hash, recordedBy, deadLetter, sentAt, progressShard);
    }

    /** The same record counted in progress shard {@code shard} (null: the shard its task id hashes to). */
    public TaskRecord withProgressShard(Integer shard) {
        return new TaskRecord(runId, taskId, kind, status, reason, enqueuedAt, startedAt, finishedAt, durationMs, attempt,
                invocation, writes, scan, hash, recordedBy, deadLetter, sentAt, shard);
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
        return new TaskRecord(item.requiredString("runId"), item.requiredString("taskId"), item.string("kind"),
                TaskStatus.fromWireName(item.requiredString("status")), item.string("reason"), item.longOrNull("enqueuedAt"),
                item.longOr("startedAt", 0), item.longOr("finishedAt", 0), item.longOr("durationMs", 0), item.intOrNull("attempt"),
                WorkerInvocation.readFrom(item), writes, scan, hash, item.string("recordedBy"), deadLetter, item.longOrNull("sentAt"),
                item.intOrNull("progressShard"));
    }

    private static double doubleOr(ItemReader item, String name) {
        Double d = item.doubleOrNull(name);
        return d == null ? 0 : d;
    }
}
