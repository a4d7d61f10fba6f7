package batchpipe.producer.run;

import batchpipe.common.run.PlanCursor;
import batchpipe.common.run.RunRecord;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run record and its progress shards: the record written before any task is sent, each page's shards
 * before the page's tasks, and the planning cursor moved past each page once it is sent.
 */
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

    /**
     * Sets the planned count of each of a page's progress shards, before any of its tasks is sent. An
     * update rather than a put: a page planned again after a crash must not wipe the ids workers have
     * already counted in its shards, and setting the same count again changes nothing.
     */
    public void planPageShards(RunPartitions layout, ProgressShards.PageShards shards, long[] planned) {
        for (int i = 0; i < shards.count(); i++) {
            int shard = shards.firstShard() + i;
            long n = planned[i];
            dynamoDb.updateItem(b -> b.tableName(table).key(layout.progressKey(shard))
                    .updateExpression("SET #planned = :n")
                    .expressionAttributeNames(Map.of("#planned", "planned"))
                    .expressionAttributeValues(Map.of(":n", AttributeValue.fromN(Long.toString(n)))));
        }
    }

    /**
     * Moves the run's planning cursor past a page, if it is still where this invocation found it.
     *
     * @return false when another invocation moved it first (a duplicate continuation): this one must stop
     */
    public boolean advance(String runId, long fromPage, PlanCursor next) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table).key(TableKeys.key(runId, TableKeys.RUN_SK))
                    .updateExpression("SET #planning = :next")
                    .conditionExpression("#planning.#page = :from")
                    .expressionAttributeNames(Map.of("#planning", "planning", "#page", "page"))
                    .expressionAttributeValues(Map.of(":next", next.toAttribute(), ":from", AttributeValue.fromN(Long.toString(fromPage)))));
            return true;
        } catch (ConditionalCheckFailedException movedOn) {
            return false;
        }
    }

    /**
     * Ends planning: the run's shard count and planned counts become final and its cursor goes, in one
     * conditional update, after which a count that completes the last shard can complete the run.
     *
     * @return the run record as this update left it; null when another invocation ended planning first
     */
    public Map<String, AttributeValue> finishPlanning(String runId, PlanCursor last, long sendFinishedAt) {
        long total = last.scan() + last.hash();
        Map<String, AttributeValue> plannedCounts = new LinkedHashMap<>();
        plannedCounts.put("scan", AttributeValue.fromN(Long.toString(last.scan())));
        plannedCounts.put("hash", AttributeValue.fromN(Long.toString(last.hash())));
        plannedCounts.put("total", AttributeValue.fromN(Long.toString(total)));
        try {
            return dynamoDb.updateItem(b -> b.tableName(table).key(TableKeys.key(runId, TableKeys.RUN_SK))
                    .updateExpression("SET #shards = :shards, #planned = :planned, enqueued = :total, sendFinishedAt = :at, #status = :status"
                            + " REMOVE #planning")
                    .conditionExpression("#planning.#page = :page")
                    .expressionAttributeNames(Map.of("#shards", "shards", "#planned", "planned", "#status", "status",
                            "#planning", "planning", "#page", "page"))
                    .expressionAttributeValues(Map.of(
                            ":shards", AttributeValue.fromN(Integer.toString(last.shards())),
                            ":planned", AttributeValue.fromM(plannedCounts),
                            ":total", AttributeValue.fromN(Long.toString(total)),
                            ":at", AttributeValue.fromN(Long.toString(sendFinishedAt)),
                            ":status", AttributeValue.fromS(total == 0 ? "empty" : "running"),
                            ":page", AttributeValue.fromN(Long.toString(last.page()))))
                    .returnValues(ReturnValue.ALL_NEW)).attributes();
        } catch (ConditionalCheckFailedException endedBefore) {
            return null;
        }
    }

    /**
     * Ties the producer invocation {@code requestId} to {@code runId} with a conditional put, or, when an
     * earlier attempt of the same invocation already did, returns the run id that attempt chose. Lambda
     * retries a failed asynchronous invocation (the schedule's) with the same request id, so a retry of one
     * that died after recording its run (out of memory, a hard timeout) goes on with that run instead of
     * planning a second one. The item sits on a key of its own ({@code invocation#<requestId>}), never
     * under a run's.
     */
    public String claimForInvocation(String requestId, String runId, long createdAtMillis) {
        Map<String, AttributeValue> key = TableKeys.itemKey(INVOCATION_PK_PREFIX + requestId, INVOCATION_SK);
        Map<String, AttributeValue> item = new LinkedHashMap<>(key);
        item.put("runId", AttributeValue.fromS(runId));
        item.put("createdAt", AttributeValue.fromN(Long.toString(createdAtMillis)));
        try {
            dynamoDb.putItem(b -> b.tableName(table).item(item).conditionExpression("attribute_not_exists(pk)"));
            return runId;
        } catch (ConditionalCheckFailedException e) {
            GetItemResponse earlier = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true).key(key));
            if (!earlier.hasItem() || !earlier.item().containsKey("runId")) {
                throw new IllegalStateException("invocation " + requestId + " was claimed, but its claim holds no run id", e);
            }
            return earlier.item().get("runId").s();
        }
    }

    /** The partition key prefix of {@link #claimForInvocation}'s items. */
    static final String INVOCATION_PK_PREFIX = "invocation#";
    static final String INVOCATION_SK = "producer";

    /** The run record as stored (consistent), or null when there is none. */
    public Map<String, AttributeValue> read(String runId) {
        GetItemResponse response = dynamoDb.getItem(b -> b.tableName(table).consistentRead(true).key(TableKeys.key(runId, TableKeys.RUN_SK)));
        return response.hasItem() && !response.item().isEmpty() ? response.item() : null;
    }

    /**
     * Claims sending the run's completion for the producer, as a worker's count would for its task
     * (attribute {@value ProgressShards#COMPLETION_CLAIM}): when the end of planning is what completes a run
     * whose tasks had all finished, nobody else will.
     *
     * @return whether the producer holds the claim (it took it now, or had taken it before a crash)
     */
    public boolean claimCompletion(String runId, String claimant, long atMillis) {
        try {
            dynamoDb.updateItem(b -> b.tableName(table).key(TableKeys.key(runId, TableKeys.RUN_SK))
                    .updateExpression("SET #claim = :me, completionSentAt = if_not_exists(completionSentAt, :now)")
                    .conditionExpression("attribute_not_exists(#claim) OR #claim = :me")
                    .expressionAttributeNames(Map.of("#claim", ProgressShards.COMPLETION_CLAIM))
                    .expressionAttributeValues(Map.of(":me", AttributeValue.fromS(claimant), ":now", AttributeValue.fromN(Long.toString(atMillis)))));
            return true;
        } catch (ConditionalCheckFailedException claimedByAnother) {
            return false;
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

    /**
     * A run whose planning could not go on: status {@code enqueue-failed} and why; its cursor stays, so
     * the record shows how far planning got (and the run can never be found complete).
     */
    public void markPlanningFailed(String runId, String reason) {
        dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("SET #status = :failed, enqueueError = :reason")
                .expressionAttributeNames(Map.of("#status", "status"))
                .expressionAttributeValues(Map.of(":failed", AttributeValue.fromS("enqueue-failed"),
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
