package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static batchpipe.common.table.ProgressShards.COMPLETION_CLAIM;
import static batchpipe.common.table.ProgressShards.shardOf;

/**
 * Counts finished tasks in a run's progress shards: the workers' side of {@link ProgressShards}, which
 * says why sets rather than counters. Reading how far a run has got is done beside it, by the class that
 * holds the sums (a class of its own: the deploy tests read which calls each function can reach).
 *
 * <p>A run is complete when every one of its shards is complete. How many shards that is, the run
 * record says only once the producer has planned the last page ({@code shards} is absent until then):
 * so the count that completes the last shard reads the run record's {@code shards} as that same update
 * returns it, never a copy, and a run still being planned is never found complete here. The producer,
 * which sets {@code shards} when planning ends, does the same check from its side.
 */
public final class ProgressCounter {
    private final DynamoDbClient dynamoDb;
    private final String table;
    /** What this instance has read of runs' records: fixed when the run is created. */
    private final Map<String, RunLayout> layouts = new ConcurrentHashMap<>();

    /**
     * Where a run's items are, and for runs planned in one go before pages existed, how many progress
     * shards their tasks hash into (their messages name no shard).
     */
    public record RunLayout(RunPartitions partitions, Integer hashedShards) {
    }

    public ProgressCounter(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** Whether the run has a run record: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId, CallTimer timer) {
        return layout(runId, timer) != null;
    }

    /**
     * Where the run's items are, as this instance has already read it ({@link #runExists}); the single-key
     * layout of a run it has not read, and of one without a run record (nothing then reads what is written).
     */
    public RunPartitions cachedPartitionsOf(String runId) {
        RunLayout layout = layouts.get(runId);
        return layout == null ? RunPartitions.legacy(runId) : layout.partitions();
    }

    /** Where the run's items are; the single-key layout when it has no run record (nothing then reads what is written). */
    public RunPartitions partitionsOf(String runId, CallTimer timer) {
        RunLayout layout = layout(runId, timer);
        return layout == null ? RunPartitions.legacy(runId) : layout.partitions();
    }

    /**
     * The run's layout (read once per run and instance); null when the run has no run record.
     */
    public RunLayout layout(String runId, CallTimer timer) {
        RunLayout cached = layouts.get(runId);
        if (cached != null) return cached;
        GetItemResponse response = timer.time(TableCall.RUN_RECORD_READ, () -> dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(TableKeys.key(runId, TableKeys.RUN_SK)).projectionExpression("#runId, #shards, #partitions")
                // PARTITIONS is one of DynamoDB's reserved words: named through placeholders
                .expressionAttributeNames(Map.of("#runId", "runId", "#shards", "shards", "#partitions", "partitions"))));
        if (!response.hasItem() || response.item().isEmpty()) {
            return null;
        }
        Map<String, AttributeValue> item = response.item();
        Integer partitions = item.containsKey("partitions") ? Integer.valueOf(item.get("partitions").n()) : null;
        // Runs of the single-key layout were planned in one go: their shard count was fixed before any task was sent.
        Integer hashed = partitions == null && item.containsKey("shards") ? Integer.valueOf(item.get("shards").n()) : null;
        RunLayout layout = new RunLayout(RunPartitions.of(runId, partitions), hashed);
        layouts.put(runId, layout);
        return layout;
    }

    /**
     * Adds the task to its progress shard under its status unless it is already there; when that
     * completes the shard, adds the shard to the run's complete set. Every step is idempotent, so a
     * redelivery after a crash between steps finishes the job.
     *
     * @param shard the progress shard its message names; null for messages of runs planned in one go
     *              (their shard is the task id's hash over the run's shard count)
     * @throws IllegalStateException when the run has no run record or no such shard: the caller must not
     *                               acknowledge a task that was not counted
     */
    public ProgressShards.Count countOnce(String runId, String taskId, Integer shard, TaskStatus status, CallTimer timer) {
        RunLayout layout = layout(runId, timer);
        if (layout == null) {
            throw new IllegalStateException("run " + runId + " has no run record; task " + taskId + " cannot be counted");
        }
        int counting;
        if (shard != null) {
            counting = shard;
        } else if (layout.hashedShards() != null) {
            counting = shardOf(taskId, layout.hashedShards());
        } else {
            throw new IllegalStateException("task " + taskId + " of run " + runId + " names no progress shard, and the run's tasks are"
                    + " counted in the shards their messages name; it cannot be counted");
        }
        Map<String, AttributeValue> key = layout.partitions().progressKey(counting);
        Map<String, AttributeValue> progress;
        try {
            UpdateItemResponse response = timer.time(TableCall.PROGRESS_UPDATE, () -> dynamoDb.updateItem(b -> b.tableName(table)
                    .key(key)
                    .updateExpression("ADD counted :id, #status :one")
                    .conditionExpression("attribute_exists(pk) AND NOT contains(counted, :taskId)")
                    .expressionAttributeNames(Map.of("#status", status.wireName()))
                    .expressionAttributeValues(Map.of(
                            ":id", AttributeValue.fromSs(List.of(taskId)),
                            ":taskId", AttributeValue.fromS(taskId),
                            ":one", AttributeValue.fromN("1")))
                    .returnValues(ReturnValue.ALL_NEW)));
            progress = response.attributes();
        } catch (ConditionalCheckFailedException alreadyCounted) {
            progress = timer.time(TableCall.PROGRESS_READ, () -> dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                    .key(key))).item();
            if (progress == null || progress.isEmpty()) {
                throw new IllegalStateException("run " + runId + " has no progress shard " + counting + "; task " + taskId + " cannot be counted");
            }
        }
        ProgressShards.Shard counted = ProgressShards.Shard.fromItem(progress);
        if (counted.counted().size() < counted.planned()) {
            return ProgressShards.Count.RUN_NOT_COMPLETE;
        }
        UpdateItemResponse run = timer.time(TableCall.RUN_SHARD_UPDATE, () -> dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("ADD completeShards :shard")
                .expressionAttributeValues(Map.of(":shard", AttributeValue.fromSs(List.of(Integer.toString(counting)))))
                .returnValues(ReturnValue.ALL_NEW)));
        return ProgressShards.completion(run.attributes(), layout.hashedShards());
    }
}
