package batchpipe.producer.run;

import batchpipe.common.table.ItemCodec;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** The run record and its progress shards, written before any task is sent. */
public final class RunStore {
    private final DynamoDbClient dynamoDb;
    private final String table;

    public RunStore(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    /**
     * Claims the run id with a conditional put, so a second invocation with the same id is refused
     * before it can send a single message.
     */
    public void create(String runId, Map<String, Object> record) {
        Map<String, Object> values = new LinkedHashMap<>(record);
        values.put(TableKeys.PK, TableKeys.runPk(runId));
        values.put(TableKeys.SK, TableKeys.RUN_SK);
        try {
            dynamoDb.putItem(b -> b.tableName(table).item(ItemCodec.toItem(values)).conditionExpression("attribute_not_exists(pk)"));
        } catch (ConditionalCheckFailedException e) {
            throw new RunExistsException(runId);
        }
    }

    /** One item per shard with the number of tasks planned for it; workers add finished task ids. */
    public void createProgressShards(String runId, List<String> taskIds, int shards) {
        long[] planned = new long[shards];
        for (String taskId : taskIds) {
            planned[ProgressShards.shardOf(taskId, shards)]++;
        }
        List<WriteRequest> writes = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            Map<String, AttributeValue> item = new HashMap<>();
            item.put(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)));
            item.put(TableKeys.SK, AttributeValue.fromS(TableKeys.progressSk(shard)));
            item.put("planned", AttributeValue.fromN(Long.toString(planned[shard])));
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        }
        for (int from = 0; from < writes.size(); from += 25) {
            List<WriteRequest> batch = writes.subList(from, Math.min(writes.size(), from + 25));
            Map<String, List<WriteRequest>> pending = Map.of(table, batch);
            for (int attempt = 0; !pending.isEmpty() && pending.get(table) != null && !pending.get(table).isEmpty(); attempt++) {
                if (attempt == 10) throw new IllegalStateException("could not write the progress shards of run " + runId);
                Map<String, List<WriteRequest>> request = pending;
                pending = dynamoDb.batchWriteItem(b -> b.requestItems(request)).unprocessedItems();
            }
        }
    }

    public void markEnqueued(String runId, long enqueued) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(TableKeys.RUN_SK)))
                .updateExpression("SET enqueued = :n")
                .expressionAttributeValues(Map.of(":n", AttributeValue.fromN(Long.toString(enqueued)))));
    }

    /** A run whose tasks could not all be sent: status {@code enqueue-failed}, with how many were sent and why. */
    public void markEnqueueFailed(String runId, long enqueued, String reason) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(TableKeys.RUN_SK)))
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
