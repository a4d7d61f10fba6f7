package batchpipe.worker.hash;

import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.TableKeys;
import batchpipe.worker.task.WriteStats;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Writes hash items with BatchWriteItem, 25 at a time (the API's limit), retrying only the
 * UnprocessedItems with backoff and full jitter. Items are keyed by (run, task, index), so writing a
 * batch again after a redelivery overwrites rather than duplicates.
 */
public final class HashItemWriter implements HashSink {
    public static final int MAX_BATCH = 25;

    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Backoff backoff;

    public HashItemWriter(DynamoDbClient dynamoDb, String table, Backoff backoff) {
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.backoff = backoff;
    }

    /** A hash item in the single-key layout of earlier runs. */
    public static Map<String, AttributeValue> item(String runId, String taskId, long index, String hash, int cost) {
        return item(RunPartitions.legacy(runId), taskId, index, hash, cost);
    }

    /** A hash item on its task's partition key: the hashes of one task are written together, to one key. */
    public static Map<String, AttributeValue> item(RunPartitions layout, String taskId, long index, String hash, int cost) {
        return Map.of(
                TableKeys.PK, AttributeValue.fromS(layout.taskPk(taskId)),
                TableKeys.SK, AttributeValue.fromS(TableKeys.hashSk(taskId, index)),
                "taskId", AttributeValue.fromS(taskId),
                "index", AttributeValue.fromN(Long.toString(index)),
                "hash", AttributeValue.fromS(hash),
                "cost", AttributeValue.fromN(Integer.toString(cost)));
    }

    /** Writes at most 25 items, and returns only when all of them are stored. */
    @Override
    public void write(List<Map<String, AttributeValue>> items, WriteStats writes) throws InterruptedException {
        if (items.size() > MAX_BATCH) {
            throw new IllegalArgumentException("BatchWriteItem takes at most " + MAX_BATCH + " items, got " + items.size());
        }
        List<WriteRequest> pending = new ArrayList<>(items.size());
        for (Map<String, AttributeValue> item : items) {
            pending.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        }
        for (int attempt = 0; !pending.isEmpty(); attempt++) {
            if (attempt > 0) {
                if (attempt >= backoff.maxAttempts()) {
                    throw new IllegalStateException("DynamoDB left " + pending.size() + " hash items unprocessed after "
                            + attempt + " attempts (throttled); the task will be retried");
                }
                backoff.sleep(attempt);
            }
            List<WriteRequest> batch = pending;
            BatchWriteItemResponse response = writes.time(TableCall.HASH_BATCH_WRITE, () -> dynamoDb.batchWriteItem(b -> b.requestItems(Map.of(table, batch))));
            List<WriteRequest> unprocessed = response.hasUnprocessedItems() ? response.unprocessedItems().get(table) : null;
            pending = unprocessed == null ? List.of() : new ArrayList<>(unprocessed);
        }
    }
}
