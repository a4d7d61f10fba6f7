package batchpipe.common.table;

import batchpipe.common.run.TaskStatus;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;
import java.util.function.Consumer;

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
        RunPartitions layout = RunPartition.layoutOf(runId, run);
        long[] sums = new long[5]; // planned, finished, done, rejected, failed
        Consumer<Map<String, AttributeValue>> add = item -> {
            ProgressShards.Shard shard = ProgressShards.Shard.fromItem(item);
            sums[0] += shard.planned();
            sums[1] += shard.counted().size();
            sums[2] += shard.byStatus().getOrDefault(TaskStatus.DONE, 0L);
            sums[3] += shard.byStatus().getOrDefault(TaskStatus.REJECTED, 0L);
            sums[4] += shard.byStatus().getOrDefault(TaskStatus.FAILED, 0L);
        };
        Integer shards = shardsGivenOut(run);
        if (layout.isLegacy() || shards == null || shards >= layout.count()) {
            RunPartition.forEach(dynamoDb, table, layout, TableKeys.PROGRESS_PREFIX, add);
        } else {
            // Shard n is on key n mod S: with fewer shards than keys, only the first keys hold any.
            for (int k = 0; k < shards; k++) {
                RunPartition.forEachOnKey(dynamoDb, table, layout.pk(k), TableKeys.PROGRESS_PREFIX, page -> page.forEach(add));
            }
        }
        return new RunProgress(sums[0], sums[1], sums[2], sums[3], sums[4], planning);
    }

    /** Progress shards the run has so far: its shard count once planned, its cursor's while planning; null when unknown. */
    private static Integer shardsGivenOut(Map<String, AttributeValue> run) {
        if (run == null) return null;
        AttributeValue planning = run.get("planning");
        if (planning != null && planning.hasM() && planning.m().get("shards") != null) return Integer.valueOf(planning.m().get("shards").n());
        AttributeValue shards = run.get("shards");
        return shards == null || shards.n() == null ? null : Integer.valueOf(shards.n());
    }

    public boolean complete() {
        return !planning && planned > 0 && finished >= planned;
    }
}
