package batchpipe.producer.run;

import batchpipe.common.run.RunRecord;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.Map;

/** The run record and its progress shards, written before any task is sent. */
public final class RunStore {
    private final DynamoDbClient dynamoDb;
    private final String table;
    /** A BatchWriteItem holds at most 25 puts. */
    private static final int BATCH_WRITE_LIMIT = 25;
    private static final int BATCH_WRITE_ATTEMPTS = 10;

    public RunStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /**
     * Claims the run id with a conditional put, so a second invocation with the same id is refused
     * before it can send a single message.
     */
    public void create(RunRecord record) {
        try {
            dynamoDb.putItem(b -> b.tableName(table).item(record.toItem()).conditionExpression("attribute_not_exists(pk)"));
        } catch (ConditionalCheckFailedException e) {
            throw new RunExistsException(record.runId());
        }
    }

    /** One item per shard with the number of tasks planned for it; workers add finished task ids. */
    public void createProgressShards(String runId, List<String> taskIds, int shards) {
        List<WriteRequest> writes = ProgressShards.plannedItems(runId, taskIds, shards).stream()
                .map(item -> WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build()).toList();
        for (int from = 0; from < writes.size(); from += BATCH_WRITE_LIMIT) {
            List<WriteRequest> batch = writes.subList(from, Math.min(writes.size(), from + BATCH_WRITE_LIMIT));
            Map<String, List<WriteRequest>> pending = Map.of(table, batch);
            for (int attempt = 0; pending.get(table) != null && !pending.get(table).isEmpty(); attempt++) {
                if (attempt == BATCH_WRITE_ATTEMPTS) {
                    throw new IllegalStateException("could not write the progress shards of run " + runId + " in "
                            + BATCH_WRITE_ATTEMPTS + " attempts (DynamoDB left some unprocessed each time)");
                }
                Map<String, List<WriteRequest>> request = pending;
                pending = dynamoDb.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            }
        }
    }

    /** Every task was sent: how many, and when the last one was (the end of the run's planning phase). */
    public void markEnqueued(String runId, long enqueued, long sendFinishedAt) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("SET enqueued = :n, sendFinishedAt = :at")
                .expressionAttributeValues(Map.of(":n", AttributeValue.fromN(Long.toString(enqueued)),
                        ":at", AttributeValue.fromN(Long.toString(sendFinishedAt)))));
    }

    /** A run whose tasks could not all be sent: status {@code enqueue-failed}, with how many were sent and why. */
    public void markEnqueueFailed(String runId, long enqueued, String reason) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("SET enqueued = :n, #status = :failed, enqueueError = :reason")
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(Map.of(":n", AttributeValue.fromN(Long.toString(enqueued)),
                        ":failed", AttributeValue.fromS("enqueue-failed"),
                        ":reason", AttributeValue.fromS(String.valueOf(reason)))));
    }

    /** Raised when the run id is taken: we refuse rather than risk sending any task twice. */
    public static final class RunExistsException extends IllegalStateException {
        public RunExistsException(String runId) {
            super("run '" + runId + "' already exists; nothing was sent. Re-planning a run is refused so that no task is"
                    + " enqueued twice: omit runId for a new run, or pick another id");
        }
    }
}
