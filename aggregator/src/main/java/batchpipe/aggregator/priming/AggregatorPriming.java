package batchpipe.aggregator.priming;

import batchpipe.common.json.Json;
import batchpipe.common.priming.Priming;
import batchpipe.common.priming.SdkPriming;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The aggregator's warm-up before the SnapStart snapshot: the JSON it reads and writes, and the
 * calls a report makes (DynamoDB Query, PutItem, UpdateItem; S3 PutObject; EventBridge PutEvents),
 * on canned clients.
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
        SdkPriming.s3(new byte[0], s3 -> s3.putObject(b -> b.bucket("priming").key("reports/priming/report.json")
                .contentType("application/json; charset=utf-8"), RequestBody.fromString("{}", StandardCharsets.UTF_8)));
        SdkPriming.json(EventBridgeClient.builder(), "application/x-amz-json-1.1", "{\"FailedEntryCount\":0,\"Entries\":[{\"EventId\":\"priming\"}]}",
                (EventBridgeClient eventBridge) -> eventBridge.putEvents(b -> b.entries(e -> e.eventBusName("default")
                        .source("batchpipe").detailType("Run Completed").detail("{\"runId\":\"priming\"}"))));
    }
}
