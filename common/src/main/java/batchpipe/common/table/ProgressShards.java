package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.ReturnValue;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.zip.CRC32;

/**
 * The one owner of a run's progress shards: the producer creates them, workers (and the dead-letter
 * recorder) count finished tasks in them, and whoever waits for a run or audits it reads them.
 *
 * <p>How a run counts finished tasks without transactions (dynalite, the local DynamoDB, has none) and
 * without ever counting a task twice: each task id belongs to one progress shard item, and finishing a
 * task adds its id to the shard's string set with a condition that it is not there yet. A shard is
 * complete when its set holds as many ids as were planned for it; the run is complete when every shard
 * is in the run record's {@code completeShards} set. Adding to a set is idempotent, so a worker that
 * dies between two of these updates and is redelivered finishes the bookkeeping without double counts.
 * Shards keep each set far below DynamoDB's 400 KB item limit.
 */
public final class ProgressShards {
    /** About 20 KB of 24-character ids per shard: small items, cheap updates. */
    public static final int TASKS_PER_SHARD = 800;
    /** A BatchWriteItem holds at most 25 puts. */
    private static final int BATCH_WRITE_LIMIT = 25;
    private static final int BATCH_WRITE_ATTEMPTS = 10;

    private final DynamoDbClient dynamoDb;
    private final String table;
    /** Shard counts of runs this instance has seen: fixed when the run is planned. */
    private final Map<String, Integer> shardCounts = new ConcurrentHashMap<>();

    public ProgressShards(DynamoDbClient dynamoDb, String table) {
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    public static int shardCount(long plannedTasks) {
        return (int) Math.max(1, (plannedTasks + TASKS_PER_SHARD - 1) / TASKS_PER_SHARD);
    }

    public static int shardOf(String taskId, int shardCount) {
        CRC32 crc = new CRC32();
        crc.update(taskId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shardCount);
    }

    /** One item per shard with the number of tasks planned for it; the run record says how many shards. */
    public void create(String runId, List<String> taskIds, int shards) {
        long[] planned = new long[shards];
        for (String taskId : taskIds) {
            planned[shardOf(taskId, shards)]++;
        }
        List<WriteRequest> writes = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            Map<String, AttributeValue> item = new java.util.HashMap<>(TableKeys.key(runId, TableKeys.progressSk(shard)));
            item.put("planned", AttributeValue.fromN(Long.toString(planned[shard])));
            writes.add(WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build());
        }
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

    /** Whether the run has a run record with its shard count: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId, CallTimer timer) {
        return shardCount(runId, timer) != null;
    }

    /**
     * What counting a task found: whether the run is now complete (every shard counted), and if so who
     * has claimed sending its completion (null when nobody yet).
     */
    public record Count(boolean runComplete, String completionClaimedBy) {
        public static final Count RUN_NOT_COMPLETE = new Count(false, null);
    }

    /**
     * Adds the task to its progress shard under its status unless it is already there; when that
     * completes the shard, adds the shard to the run's complete set. Every step is idempotent, so a
     * redelivery after a crash between steps finishes the job.
     *
     * @throws IllegalStateException when the run has no run record or no such shard: the caller must not
     *                               acknowledge a task that was not counted
     */
    public Count countOnce(String runId, String taskId, TaskStatus status, CallTimer timer) {
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
        Shard counted = Shard.fromItem(progress);
        if (counted.counted().size() < counted.planned()) {
            return Count.RUN_NOT_COMPLETE;
        }
        UpdateItemResponse run = timer.time(TableCall.RUN_SHARD_UPDATE, () -> dynamoDb.updateItem(b -> b.tableName(table)
                .key(TableKeys.key(runId, TableKeys.RUN_SK))
                .updateExpression("ADD completeShards :shard")
                .expressionAttributeValues(Map.of(":shard", AttributeValue.fromSs(List.of(Integer.toString(shard)))))
                .returnValues(ReturnValue.ALL_NEW)));
        int complete = run.attributes().get("completeShards").ss().size();
        if (complete < shards) {
            return Count.RUN_NOT_COMPLETE;
        }
        AttributeValue claim = run.attributes().get(COMPLETION_CLAIM);
        return new Count(true, claim == null ? null : claim.s());
    }

    /** The run record's attribute naming the task that sends the run's completion (see the worker's CompletionNotifier). */
    public static final String COMPLETION_CLAIM = "completionSentBy";

    /** How far a run has got, summed over its shards with one strongly consistent Query (a few small items however large the run). */
    public RunProgress read(String runId) {
        long[] sums = new long[5]; // planned, finished, done, rejected, failed
        RunPartition.forEach(dynamoDb, table, runId, TableKeys.PROGRESS_PREFIX, item -> {
            Shard shard = Shard.fromItem(item);
            sums[0] += shard.planned();
            sums[1] += shard.counted().size();
            sums[2] += shard.byStatus().getOrDefault(TaskStatus.DONE, 0L);
            sums[3] += shard.byStatus().getOrDefault(TaskStatus.REJECTED, 0L);
            sums[4] += shard.byStatus().getOrDefault(TaskStatus.FAILED, 0L);
        });
        return new RunProgress(sums[0], sums[1], sums[2], sums[3], sums[4]);
    }

    /**
     * One progress shard as stored.
     *
     * @param planned  tasks planned for it
     * @param counted  ids of the tasks counted in it
     * @param byStatus how many of them were counted under each status
     */
    public record Shard(long planned, Set<String> counted, Map<TaskStatus, Long> byStatus) {
        public static Shard fromItem(Map<String, AttributeValue> item) {
            AttributeValue planned = item.get("planned");
            Set<String> counted = item.containsKey("counted") ? Set.copyOf(item.get("counted").ss()) : Set.of();
            Map<TaskStatus, Long> byStatus = new EnumMap<>(TaskStatus.class);
            for (TaskStatus status : TaskStatus.values()) {
                AttributeValue n = item.get(status.wireName());
                if (n != null && n.n() != null) byStatus.put(status, Long.parseLong(n.n()));
            }
            return new Shard(planned == null || planned.n() == null ? 0 : Long.parseLong(planned.n()), counted, byStatus);
        }
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
