package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * How far a run has got, as {@link #read} sums it from the run's progress shards.
 *
 * @param planned  tasks planned, summed over the shards (so far, while the run is still being planned)
 * @param finished tasks with a final record (done + rejected + failed)
 * @param planning whether the producer is still planning the run: more tasks may come, it cannot be complete
 */
public record RunProgress(long planned, long finished, long done, long rejected, long failed, boolean planning) {

    public RunProgress(long planned, long finished, long done, long rejected, long failed) {
        this(planned, finished, done, rejected, failed, false);
    }

    /**
     * How far a run has got: its run record (is it still being planned? on which keys are its shards?), then
     * its progress shards ({@link ProgressShards.Shard}) summed with one strongly consistent Query per
     * partition key: a few small items however large the run.
     */
    public static RunProgress read(DynamoDbClient dynamoDb, String table, String runId) {
        Map<String, AttributeValue> run = RunPartition.runItem(dynamoDb, table, runId);
        boolean planning = run != null && run.containsKey("planning");
        long[] sums = new long[5]; // planned, finished, done, rejected, failed
        RunPartition.forEach(dynamoDb, table, RunPartition.layoutOf(runId, run), TableKeys.PROGRESS_PREFIX, item -> {
            ProgressShards.Shard shard = ProgressShards.Shard.fromItem(item);
            sums[0] += shard.planned();
            sums[1] += shard.counted().size();
            sums[2] += shard.byStatus().getOrDefault(TaskStatus.DONE, 0L);
            sums[3] += shard.byStatus().getOrDefault(TaskStatus.REJECTED, 0L);
            sums[4] += shard.byStatus().getOrDefault(TaskStatus.FAILED, 0L);
        });
        return new RunProgress(sums[0], sums[1], sums[2], sums[3], sums[4], planning);
    }

    public boolean complete() {
        return !planning && planned > 0 && finished >= planned;
    }
}
