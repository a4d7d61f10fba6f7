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
 */
public final class ProgressCounter {
    private final DynamoDbClient dynamoDb;
    private final String table;
    /** Shard counts of runs this instance has seen: fixed when the run is planned. */
    private final Map<String, Integer> shardCounts = new ConcurrentHashMap<>();

    public ProgressCounter(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /** Whether the run has a run record with its shard count: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId, CallTimer timer) {
        return shardCount(runId, timer) != null;
    }

    /**
     * Adds the task to its progress shard under its status unless it is already there; when that
     * completes the shard, adds the shard to the run's complete set. Every step is idempotent, so a
     * redelivery after a crash between steps finishes the job.
     *
     * @throws IllegalStateException when the run has no run record or no such shard: the caller must not
     *                               acknowledge a task that was not counted
     */
    public ProgressShards.Count countOnce(String runId, String taskId, TaskStatus status, CallTimer timer) {
        Integer shards = shardCount(runId, timer);
        if (shards == null) {
            throw new IllegalStateException("run " + runId + " has no run record; task " + taskId + " cannot be counted");
        }
        int shard = shardOf(taskId, shards);
        Map<String, AttributeValue> progress;
        try {
            UpdateItemResponse response = timer.time(TableCall.PROGRESS_UPDATE, () -> dynamoDb.updateItem(b -> b.tableName(table)
                    .key(TableKeys.key(runId, TableKeys.progressSk(shard)))
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
                    .key(TableKeys.key(runId, TableKeys.progressSk(shard))))).item();
            if (progress == null || progress.isEmpty()) {
                throw new IllegalStateException("run " + runId + " has no progress shard " + shard + "; task " + taskId + " cannot be counted");
            }
        }
        ProgressShards.Shard counted = ProgressShards.Shard.fromItem(progress);
        if (counted.counted().size() < counted.planned()) {
            return ProgressShards.Count.RUN_NOT_COMPLETE;
        }
        UpdateItemResponse run = timer.time(TableCall.RUN_SHARD_UPDATE, () -> dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("ADD completeShards :shard")
                .expressionAttributeValues(Map.of(":shard", AttributeValue.fromSs(List.of(Integer.toString(shard)))))
                .returnValues(ReturnValue.ALL_NEW)));
        int complete = run.attributes().get("completeShards").ss().size();
        if (complete < shards) {
            return ProgressShards.Count.RUN_NOT_COMPLETE;
        }
        AttributeValue claim = run.attributes().get(COMPLETION_CLAIM);
        return new ProgressShards.Count(true, claim == null ? null : claim.s());
    }

    private Integer shardCount(String runId, CallTimer timer) {
        Integer cached = shardCounts.get(runId);
        if (cached != null) return cached;
        GetItemResponse response = timer.time(TableCall.RUN_RECORD_READ, () -> dynamoDb.getItem(b -> b.tableName(table).consistentRead(true)
                .key(TableKeys.key(runId, TableKeys.RUN_SK)).projectionExpression("shards")));
        if (!response.hasItem() || response.item().isEmpty() || !response.item().containsKey("shards")) {
            return null;
        }
        int shards = Integer.parseInt(response.item().get("shards").n());
        shardCounts.put(runId, shards);
        return shards;
    }
}
