package batchpipe.common.table;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

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
        long planned = 0, finished = 0, done = 0, rejected = 0, failed = 0;
        Map<String, AttributeValue> startKey = null;
        do {
            QueryResponse page = dynamoDb.query(QueryRequest.builder()
                    .tableName(table)
                    .consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :progress)")
                    .expressionAttributeValues(Map.of(
                            ":pk", AttributeValue.fromS(TableKeys.runPk(runId)),
                            ":progress", AttributeValue.fromS(TableKeys.PROGRESS_PREFIX)))
                    .exclusiveStartKey(startKey)
                    .build());
            for (Map<String, AttributeValue> item : page.items()) {
                planned += number(item, "planned");
                finished += item.containsKey("counted") ? item.get("counted").ss().size() : 0;
                done += number(item, "done");
                rejected += number(item, "rejected");
                failed += number(item, "failed");
            }
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
        return new RunProgress(planned, finished, done, rejected, failed);
    }

    private static long number(Map<String, AttributeValue> item, String name) {
        AttributeValue value = item.get(name);
        return value == null || value.n() == null ? 0 : Long.parseLong(value.n());
    }
}
