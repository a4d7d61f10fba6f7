package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.List;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.zip.CRC32;

/**
 * The one owner of a run's progress shards' layout and items: how many a run has, which one counts a
 * task, what a new one holds and how a stored one reads. The calls that write and read them sit in the
 * classes of the functions that make them (the producer's run store creates them, the counter beside
 * this class counts in them, the run's progress sums them), so that each function's code, and so its
 * role, reaches only the calls it needs: the deploy tests read which calls each function can reach.
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

    private ProgressShards() {
    }

    public static int shardCount(long plannedTasks) {
        return (int) Math.max(1, (plannedTasks + TASKS_PER_SHARD - 1) / TASKS_PER_SHARD);
    }

    public static int shardOf(String taskId, int shardCount) {
        CRC32 crc = new CRC32();
        crc.update(taskId.getBytes(StandardCharsets.UTF_8));
        return (int) (crc.getValue() % shardCount);
    }

    /**
     * The shard items a run starts with: one per shard, with the number of its tasks planned for it (the
     * run record says how many shards). The producer writes them before it sends any task.
     */
    public static List<Map<String, AttributeValue>> plannedItems(String runId, List<String> taskIds, int shards) {
        long[] planned = new long[shards];
        for (String taskId : taskIds) {
            planned[shardOf(taskId, shards)]++;
        }
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (int shard = 0; shard < shards; shard++) {
            Map<String, AttributeValue> item = new HashMap<>(TableKeys.key(runId, TableKeys.progressSk(shard)));
            item.put("planned", AttributeValue.fromN(Long.toString(planned[shard])));
            items.add(item);
        }
        return items;
    }

    /**
     * The progress shards of one planned page of tasks (at most 1,000 when planning goes page by page):
     * one per {@value #TASKS_PER_SHARD} tasks, numbered from {@code firstShard}, each task in
     * {@code firstShard + shardOf(taskId, count)}. The task message names its shard, so a worker finds
     * it without knowing how many shards the run will end with.
     */
    public record PageShards(int firstShard, int count) {
        /** A page without tasks has no shard: a shard nobody counts in would never complete. */
        public static PageShards of(int firstShard, long pageTasks) {
            return new PageShards(firstShard, pageTasks == 0 ? 0 : shardCount(pageTasks));
        }

        public int shardOf(String taskId) {
            return firstShard + ProgressShards.shardOf(taskId, count);
        }

        /** The shard after this page's last: where the next page starts. */
        public int next() {
            return firstShard + count;
        }

        /** How many of {@code taskIds} each of this page's shards holds, by shard number. */
        public long[] planned(List<String> taskIds) {
            long[] planned = new long[count];
            for (String taskId : taskIds) planned[shardOf(taskId) - firstShard]++;
            return planned;
        }
    }

    /**
     * What counting a task found: whether the run is now complete (every shard counted), and if so who
     * has claimed sending its completion (null when nobody yet).
     */
    public record Count(boolean runComplete, String completionClaimedBy) {
        public static final Count RUN_NOT_COMPLETE = new Count(false, null);
    }

    /**
     * What a run record, as an update of its complete shards returned it, says: complete when its shard
     * count is known (planning has ended) and every shard is in {@code completeShards}.
     */
    public static Count completion(Map<String, AttributeValue> runRecord) {
        return completion(runRecord, null);
    }

    /**
     * As {@link #completion(Map)}, for a run planned in one go whose shard count, fixed before any task was
     * sent, the caller already knows ({@code fixedShards}; null for runs planned page by page).
     */
    public static Count completion(Map<String, AttributeValue> runRecord, Integer fixedShards) {
        AttributeValue stored = runRecord.get("shards");
        Integer shards = stored != null && stored.n() != null ? Integer.valueOf(stored.n()) : fixedShards;
        AttributeValue complete = runRecord.get("completeShards");
        if (shards == null || runRecord.containsKey("planning") || complete == null || !complete.hasSs()) {
            return Count.RUN_NOT_COMPLETE;
        }
        if (complete.ss().size() < shards) {
            return Count.RUN_NOT_COMPLETE;
        }
        AttributeValue claim = runRecord.get(COMPLETION_CLAIM);
        return new Count(true, claim == null ? null : claim.s());
    }

    /** The run record's attribute naming the task that sends the run's completion (see the worker's CompletionNotifier). */
    public static final String COMPLETION_CLAIM = "completionSentBy";

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
}
