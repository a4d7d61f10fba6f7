package batchpipe.worker.record;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.table.ItemCodec;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.TableKeys;
import batchpipe.worker.task.WriteStats;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Writes each task's final record exactly once and counts it on the run exactly once (see
 * {@link ProgressShards} for why sets rather than counters). The worker whose update completes the
 * run's last shard sends the run to the aggregator through the completions queue and then marks the
 * run record ({@code completionSentAt}), so that a late duplicate of a counted task does not notify
 * again; a crash between the send and the mark repeats the send, which is harmless because the
 * aggregator is idempotent.
 */
public final class TaskRecordStore {
    private static final StructuredLog LOG = StructuredLog.of(TaskRecordStore.class);

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final CompletionNotifier completions;
    /** Shard counts of runs this instance has seen: fixed when the run is planned. */
    private final Map<String, Integer> shardCounts = new ConcurrentHashMap<>();

    public TaskRecordStore(DynamoDbClient dynamoDb, SqsClient sqs, String table, String completionsQueueUrl) {
        this(dynamoDb, () -> sqs, table, completionsQueueUrl);
    }

    public TaskRecordStore(DynamoDbClient dynamoDb, Supplier<SqsClient> sqsClient, String table, String completionsQueueUrl) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.completions = new CompletionNotifier(dynamoDb, sqsClient, table, completionsQueueUrl);
    }

    /** What {@link #recordFinal} did: wrote the record, or found one an earlier delivery wrote. */
    public record Recorded(boolean written, String status) {
    }

    /** Whether the run has a run record: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId) {
        return shardCount(runId) != null;
    }

    /** The task's final record, if one was written by an earlier delivery. */
    public Optional<Map<String, Object>> find(String runId, String taskId) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(key(runId, TableKeys.taskSk(taskId))));
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(ItemCodec.fromItem(response.item())) : Optional.empty();
    }

    /**
     * Writes the final record unless one exists, then counts the task with the status that is stored.
     * When an earlier (or a concurrent duplicate) delivery had already written it, nothing changes except
     * finishing its bookkeeping, and the answer says so with the stored status.
     */
    public Recorded recordFinal(Map<String, Object> record, WriteStats writes) {
        String runId = (String) record.get("runId");
        String taskId = (String) record.get("taskId");
        Map<String, Object> values = new HashMap<>(record);
        values.put(TableKeys.PK, TableKeys.runPk(runId));
        values.put(TableKeys.SK, TableKeys.taskSk(taskId));
        boolean written;
        try {
            writes.time(() -> dynamoDb.putItem(b -> b.tableName(table)
                    .item(ItemCodec.toItem(values))
                    .conditionExpression("attribute_not_exists(pk)")));
            written = true;
        } catch (ConditionalCheckFailedException alreadyRecorded) {
            written = false;
        }
        String status = written ? (String) record.get("status") : find(runId, taskId).map(r -> (String) r.get("status")).orElseThrow();
        countOnce(runId, taskId, status, writes);
        return new Recorded(written, status);
    }

    /**
     * Keeps the last error of a failed delivery beside the task, so that whoever records the task
     * after its last receive (the dead-letter recorder) can say why it failed. One small item per task,
     * overwritten by each failed delivery; nothing is written for deliveries that succeed.
     */
    public void recordAttemptError(String runId, String taskId, int attempt, String error, long atMillis) {
        dynamoDb.putItem(b -> b.tableName(table).item(Map.of(
                TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)),
                TableKeys.SK, AttributeValue.fromS(TableKeys.attemptSk(taskId)),
                "taskId", AttributeValue.fromS(taskId),
                "attempt", AttributeValue.fromN(Integer.toString(attempt)),
                "error", AttributeValue.fromS(error.length() <= 1000 ? error : error.substring(0, 1000) + "…"),
                "at", AttributeValue.fromN(Long.toString(atMillis)))));
    }

    /** The last error a failed delivery of the task recorded, if any, as "attempt N: error". */
    public Optional<String> lastAttemptError(String runId, String taskId) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(key(runId, TableKeys.attemptSk(taskId))));
        if (!response.hasItem() || response.item().isEmpty() || !response.item().containsKey("error")) return Optional.empty();
        Map<String, AttributeValue> item = response.item();
        return Optional.of("attempt " + (item.containsKey("attempt") ? item.get("attempt").n() : "?") + ": " + item.get("error").s());
    }

    /**
     * Marks the task's final record as having gone through the dead-letter queue, with the receive
     * count SQS reported there. Idempotent (a second mark only repeats the same facts).
     */
    public void markDeadLettered(String runId, String taskId, int receiveCount, long atMillis) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(key(runId, TableKeys.taskSk(taskId)))
                .updateExpression("SET deadLetteredAt = if_not_exists(deadLetteredAt, :at), deadLetterReceives = :receives")
                .conditionExpression("attribute_exists(pk)")
                .expressionAttributeValues(Map.of(
                        ":at", AttributeValue.fromN(Long.toString(atMillis)),
                        ":receives", AttributeValue.fromN(Integer.toString(receiveCount)))));
    }

    /**
     * Adds the task to its progress shard unless it is already there; when that completes the shard,
     * adds the shard to the run's complete set; when that completes the run, notifies the aggregator.
     * Every step is idempotent, so a redelivery after a crash between steps finishes the job.
     */
    public void countOnce(String runId, String taskId, String status, WriteStats writes) {
        Integer shards = shardCount(runId);
        if (shards == null) {
            // Never acknowledge a task that was not counted: the message comes back, and after its last
            // receive the dead-letter recorder sends it to the poison queue for a person to read.
            throw new IllegalStateException("run " + runId + " has no run record; task " + taskId + " cannot be counted");
        }
        int shard = ProgressShards.shardOf(taskId, shards);
        Map<String, AttributeValue> progress;
        try {
            UpdateItemResponse response = writes.time(() -> dynamoDb.updateItem(b -> b.tableName(table)
                    .key(key(runId, TableKeys.progressSk(shard)))
                    .updateExpression("ADD counted :id, #status :one")
                    .conditionExpression("attribute_exists(pk) AND NOT contains(counted, :taskId)")
                    .expressionAttributeNames(Map.of("#status", status))
                    .expressionAttributeValues(Map.of(
                            ":id", AttributeValue.fromSs(java.util.List.of(taskId)),
                            ":taskId", AttributeValue.fromS(taskId),
                            ":one", AttributeValue.fromN("1")))
                    .returnValues(ReturnValue.ALL_NEW)));
            progress = response.attributes();
        } catch (ConditionalCheckFailedException alreadyCounted) {
            progress = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                    .key(key(runId, TableKeys.progressSk(shard)))).item();
            if (progress == null || progress.isEmpty()) {
                throw new IllegalStateException("run " + runId + " has no progress shard " + shard + "; task " + taskId + " cannot be counted");
            }
        }
        long planned = Long.parseLong(progress.get("planned").n());
        int counted = progress.containsKey("counted") ? progress.get("counted").ss().size() : 0;
        if (counted < planned) {
            return;
        }
        UpdateItemResponse run = writes.time(() -> dynamoDb.updateItem(b -> b.tableName(table)
                .key(key(runId, TableKeys.RUN_SK))
                .updateExpression("ADD completeShards :shard")
                .expressionAttributeValues(Map.of(":shard", AttributeValue.fromSs(java.util.List.of(Integer.toString(shard)))))
                .returnValues(ReturnValue.ALL_NEW)));
        int complete = run.attributes().get("completeShards").ss().size();
        if (complete < shards) {
            return;
        }
        completions.notifyOnce(runId, taskId,
                run.attributes().containsKey(CompletionNotifier.CLAIM) ? run.attributes().get(CompletionNotifier.CLAIM).s() : null, writes);
    }

    private Integer shardCount(String runId) {
        Integer cached = shardCounts.get(runId);
        if (cached != null) return cached;
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(key(runId, TableKeys.RUN_SK)).projectionExpression("shards"));
        if (!response.hasItem() || response.item().isEmpty() || !response.item().containsKey("shards")) {
            return null;
        }
        int shards = Integer.parseInt(response.item().get("shards").n());
        shardCounts.put(runId, shards);
        return shards;
    }

    private static Map<String, AttributeValue> key(String runId, String sk) {
        return Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(sk));
    }
}
