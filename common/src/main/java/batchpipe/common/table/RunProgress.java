package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

/**
 * How far a run has got, as {@link #read} sums it from the run's progress shards.
 *
 * @param planned  tasks planned, summed over the shards
 * @param finished tasks with a final record (done + rejected + failed)
 */
public record RunProgress(long planned, long finished, long done, long rejected, long failed) {

    /**
     * How far a run has got, summed over its progress shards ({@link ProgressShards.Shard}) with one strongly
     * consistent Query: a few small items however large the run.
     */
    public static RunProgress read(DynamoDbClient dynamoDb, String table, String runId) {
        long[] sums = new long[5]; // planned, finished, done, rejected, failed
        RunPartition.forEach(dynamoDb, table, runId, TableKeys.PROGRESS_PREFIX, item -> {
            ProgressShards.Shard shard = ProgressShards.Shard.fromItem(item);
            sums[0] += shard.planned();
            sums[1] += shard.counted().size();
            sums[2] += shard.byStatus().getOrDefault(TaskStatus.DONE, 0L);
            sums[3] += shard.byStatus().getOrDefault(TaskStatus.REJECTED, 0L);
            sums[4] += shard.byStatus().getOrDefault(TaskStatus.FAILED, 0L);
        });
        return new RunProgress(sums[0], sums[1], sums[2], sums[3], sums[4]);
    }

    public boolean complete() {
        return planned > 0 && finished >= planned;
    }
}
