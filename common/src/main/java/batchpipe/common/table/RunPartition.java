package batchpipe.common.table;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Reads a run's partition ({@code pk = run#<runId>}), page by page until DynamoDB has no more, with
 * consistent reads: a run's record, progress shards, task records and hash items all live there, and
 * whoever reads them (the aggregator, the progress count, the audit) must see every write that came first.
 */
public final class RunPartition {
    private RunPartition() {
    }

    /**
     * Hands every item of the run whose sort key starts with {@code skPrefix} (every item when null) to
     * {@code each}, one page at a time, so a caller that only sums need not hold them all.
     */
    public static void forEach(DynamoDbClient dynamoDb, String table, String runId, String skPrefix, Consumer<Map<String, AttributeValue>> each) {
        QueryRequest.Builder request = QueryRequest.builder().tableName(table).consistentRead(true);
        if (skPrefix == null) {
            request.keyConditionExpression("pk = :pk")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(TableKeys.runPk(runId))));
        } else {
            request.keyConditionExpression("pk = :pk AND begins_with(sk, :sk)")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(TableKeys.runPk(runId)), ":sk", AttributeValue.fromS(skPrefix)));
        }
        Map<String, AttributeValue> startKey = null;
        do {
            QueryResponse page = dynamoDb.query(request.exclusiveStartKey(startKey).build());
            page.items().forEach(each);
            startKey = page.hasLastEvaluatedKey() && !page.lastEvaluatedKey().isEmpty() ? page.lastEvaluatedKey() : null;
        } while (startKey != null);
    }

    /** Every item of the run whose sort key starts with {@code skPrefix} (every item when null). */
    public static List<Map<String, AttributeValue>> items(DynamoDbClient dynamoDb, String table, String runId, String skPrefix) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        forEach(dynamoDb, table, runId, skPrefix, items::add);
        return items;
    }
}
