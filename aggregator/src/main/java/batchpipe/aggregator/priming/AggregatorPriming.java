package batchpipe.aggregator.priming;

import batchpipe.common.table.TableKeys;
import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.json.Json;
import batchpipe.common.priming.Priming;
import batchpipe.common.priming.SdkPriming;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;

import java.nio.charset.StandardCharsets;
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

    /** Computes a small run's report, writes it as report.json and reads it back: the report's own code paths, warmed. */
    static void roundTripSampleReport() {
        RunRecord run = RunRecord.planned("priming", "priming", "{\"scan\":[{\"bucket\":\"priming\"}]}", new Planned(1, 1, 2), 10, 1_000, 1);
        WorkerInvocation invocation = new WorkerInvocation("priming-request", "worker", "$LATEST", 1769, "arm64", 1, 1.0, true, 250L);
        List<TaskRecord> tasks = List.of(
                TaskRecord.builder().runId("priming").taskId("scan-000001").kind("scan").status(TaskStatus.DONE).enqueuedAt(1_000L)
                        .startedAt(1_100).finishedAt(1_600).attempt(1).invocation(invocation)
                        .writes(new WriteTimes(1, 5.5, 5.5)).scan(new ScanOutcome("priming", "logs/1.jsonl.zst", 1_000, 2, List.of(7L, 9L), 0,
                                4_000_000, 500_000, Map.of("level", Map.of("INFO", 998L)), Map.of("level", 1L), null, null, null)).build(),
                TaskRecord.builder().runId("priming").taskId("hash-000001").kind("hash").status(TaskStatus.DONE).enqueuedAt(1_000L)
                        .startedAt(1_600).finishedAt(2_200).attempt(1).invocation(invocation)
                        .writes(new WriteTimes(2, 11.0, 6.0)).hash(new HashOutcome(10, 10)).build());
        for (int i = 0; i < 20; i++) {
            try (RunReport report = RunReport.of("priming", run, tasks, PriceTable.defaults(),
                    ReportInputs.withoutReportLines(CostAssumptions.defaults()))) {
                Report.fromJson(Json.writePretty(report.report()), "the priming report");
                report.tasksCsv().render();
            }
        }
    }

    static void sdkCalls() {
        Map<String, AttributeValue> key = TableKeys.key("priming", TableKeys.SUMMARY_SK);
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
