package batchpipe.common.table;

import java.nio.charset.StandardCharsets;
import java.util.zip.CRC32;

/**
 * How a run counts finished tasks without transactions (dynalite, the local DynamoDB, has none) and
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
}
