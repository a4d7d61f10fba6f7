package batchpipe.common.table;

/**
 * How far a run has got, as {@link ProgressShards#read} sums it from the run's progress shards.
 *
 * @param planned  tasks planned, summed over the shards
 * @param finished tasks with a final record (done + rejected + failed)
 */
public record RunProgress(long planned, long finished, long done, long rejected, long failed) {

    /** The run's progress now: {@link ProgressShards#read} for a caller that holds no ProgressShards. */
    public static RunProgress read(software.amazon.awssdk.services.dynamodb.DynamoDbClient dynamoDb, String table, String runId) {
        return new ProgressShards(dynamoDb, table).read(runId);
    }

    public boolean complete() {
        return planned > 0 && finished >= planned;
    }
}
