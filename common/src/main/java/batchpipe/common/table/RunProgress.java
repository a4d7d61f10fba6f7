package batchpipe.common.table;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * How far a run has got, read from its progress shards with one strongly consistent Query
 * (a few small items however large the run).
 *
 * @param planned  tasks planned, summed over the shards
 * @param finished tasks with a final record (done + rejected + failed)
 */
public record RunProgress(long planned, long finished, long done, long rejected, long failed) {

    public boolean complete() {
        return planned > 0 && finished >= planned;
    }

    public static RunProgress read(DynamoDbClient dynamoDb, String table, String runId) {
        long[] sums = new long[5]; // planned, finished, done, rejected, failed
        RunPartition.forEach(dynamoDb, table, runId, TableKeys.PROGRESS_PREFIX, item -> {
            sums[0] += number(item, "planned");
            sums[1] += item.containsKey("counted") ? item.get("counted").ss().size() : 0;
            sums[2] += number(item, "done");
            sums[3] += number(item, "rejected");
            sums[4] += number(item, "failed");
        });
        return new RunProgress(sums[0], sums[1], sums[2], sums[3], sums[4]);
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }
}
