package batchpipe.aggregator.priming;

import batchpipe.common.json.Json;
import batchpipe.common.priming.Priming;
import batchpipe.common.priming.SdkPriming;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregator's warm-up before the SnapStart snapshot: the JSON it reads and writes, and the
 * DynamoDB calls a report makes (Query, PutItem, UpdateItem), on canned clients.
 */
public final class AggregatorPriming {

    private AggregatorPriming() {
    }

    public static Priming register() {
        return hooks().register();
    }

    public static Priming.Builder hooks() {
        return Priming.of("aggregator")
                .warm("json", AggregatorPriming::roundTripSampleReport)
                .warm("sdk", AggregatorPriming::sdkCalls);
    }

    static void roundTripSampleReport() {
        Map<String, Object> report = new LinkedHashMap<>();
        report.put("runId", "priming");
        report.put("status", "complete");
        report.put("tasks", Map.of("scan", 10, "hash", 10));
        report.put("latencyMs", Map.of("p50", 120.5, "p90", 480.0, "p99", 1_250.25));
        report.put("platforms", List.of(Map.of("architecture", "arm64", "memoryMb", 1769, "tasks", 20)));
        for (int i = 0; i < 50; i++) {
            Json.parseObject(Json.write(report));
        }
    }

    static void sdkCalls() {
        Map<String, AttributeValue> key = Map.of("pk", AttributeValue.fromS("run#priming"), "sk", AttributeValue.fromS("summary"));
        SdkPriming.dynamoDb(dynamoDb -> {
            dynamoDb.query(QueryRequest.builder().tableName("priming").consistentRead(true)
                    .keyConditionExpression("pk = :pk AND begins_with(sk, :sk)")
                    .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS("run#priming"), ":sk", AttributeValue.fromS("task#")))
                    .build());
            dynamoDb.putItem(b -> b.tableName("priming").item(key));
            dynamoDb.updateItem(b -> b.tableName("priming").key(key).updateExpression("SET #status = :complete")
                    .expressionAttributeNames(Map.of("#status", "status"))
                    .expressionAttributeValues(Map.of(":complete", AttributeValue.fromS("complete"))));
        });
    }
}
