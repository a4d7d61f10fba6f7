package batchpipe.worker.record;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.RunPartitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;

import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * The task items of the runs table: each task's final record, written once, and the last error of its
 * failed deliveries. Counting a task is {@link batchpipe.common.table.ProgressShards}' job, and telling
 * the aggregator {@link CompletionNotifier}'s; {@link TaskBooks} does the three in order.
 */
public final class TaskRecords {
    /** An attempt error is kept to this many characters: enough for an exception's message, small as an item. */
    static final int MAX_ERROR_CHARS = 1000;

    private final DynamoDbClient dynamoDb;
    private final String table;
    /** Where each run's items are (the progress counter reads it once per run). */
    private final Function<String, RunPartitions> layouts;

    /** Records of runs of the single-key layout. */
    public TaskRecords(DynamoDbClient dynamoDb, String table) {
        this(dynamoDb, table, RunPartitions::legacy);
    }

    public TaskRecords(DynamoDbClient dynamoDb, String table, Function<String, RunPartitions> layouts) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.layouts = layouts;
    }

    /** The task's final record, if one was written by an earlier delivery. */
    public Optional<TaskRecord> find(String runId, String taskId, CallTimer timer) {
        GetItemResponse response = timer.time(TableCall.TASK_RECORD_READ, () -> dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(layouts.apply(runId).taskRecordKey(taskId))));
        return response.hasItem() && !response.item().isEmpty()
                ? Optional.of(TaskRecord.fromItem(response.item())) : Optional.empty();
    }

    /**
     * Writes the final record unless one exists (a conditional put).
     *
     * @return true when this call wrote it; false when an earlier (or a concurrent duplicate) delivery had
     */
    public boolean putIfAbsent(TaskRecord record, CallTimer timer) {
        try {
            timer.time(TableCall.TASK_RECORD_PUT, () -> dynamoDb.putItem(b -> b.tableName(table)
                    .item(record.toItem(layouts.apply(record.runId())))
                    .conditionExpression("attribute_not_exists(pk)")));
            return true;
        } catch (ConditionalCheckFailedException alreadyRecorded) {
            return false;
        }
    }

    /**
     * Keeps the last error of a failed delivery beside the task, so that whoever records the task
     * after its last receive (the dead-letter recorder) can say why it failed. One small item per task,
     * overwritten by each failed delivery; nothing is written for deliveries that succeed.
     */
    public void recordAttemptError(String runId, String taskId, int attempt, String error, long atMillis, CallTimer timer) {
        Map<String, AttributeValue> item = new HashMap<>(layouts.apply(runId).attemptKey(taskId));
        item.put("taskId", AttributeValue.fromS(taskId));
        item.put("attempt", AttributeValue.fromN(Integer.toString(attempt)));
        item.put("error", AttributeValue.fromS(error.length() <= MAX_ERROR_CHARS ? error : error.substring(0, MAX_ERROR_CHARS) + "…"));
        item.put("at", AttributeValue.fromN(Long.toString(atMillis)));
        timer.time(TableCall.ATTEMPT_ERROR_PUT, () -> dynamoDb.putItem(b -> b.tableName(table).item(item)));
    }

    /** The last error a failed delivery of the task recorded, if any, as "attempt N: error". */
    public Optional<String> lastAttemptError(String runId, String taskId) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(layouts.apply(runId).attemptKey(taskId)));
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
                .key(layouts.apply(runId).taskRecordKey(taskId))
                .updateExpression("SET deadLetteredAt = if_not_exists(deadLetteredAt, :at), deadLetterReceives = :receives")
                .conditionExpression("attribute_exists(pk)")
                .expressionAttributeValues(Map.of(
                        ":at", AttributeValue.fromN(Long.toString(atMillis)),
                        ":receives", AttributeValue.fromN(Integer.toString(receiveCount)))));
    }
}
