package batchpipe.aggregator;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import batchpipe.aggregator.delivery.JsonLinesRunEvents;
import batchpipe.aggregator.delivery.RunEvents;
import software.amazon.awssdk.core.sync.RequestBody;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.PutObjectRequest;
import software.amazon.awssdk.services.s3.model.PutObjectResponse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class AggregatorHandlerTest {
    @TempDir
    Path dir;
    private DynamoDbClient dynamoDb;
    private S3Client s3;
    private RunEvents events;
    private AggregatorHandler handler;
    private static final Map<String, String> ENV = Map.of("TABLE_NAME", "tbl", "REPORT_BUCKET", "bkt");

    @BeforeEach
    void setUp() {
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        // Run r1 exists with one finished task; every other run is unknown.
        doAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            if (!request.expressionAttributeValues().get(":pk").s().equals("run#r1")) return QueryResponse.builder().build();
            if (request.expressionAttributeValues().get(":sk").s().equals("run")) {
                return QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run"),
                        "runId", AttributeValue.fromS("r1"), "createdAt", AttributeValue.fromN("1000"),
                        "planned", AttributeValue.fromM(Map.of("total", AttributeValue.fromN("1"))))).build();
            }
            return QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("task#t1"),
                    "runId", AttributeValue.fromS("r1"), "taskId", AttributeValue.fromS("t1"), "status", AttributeValue.fromS("done"),
                    "startedAt", AttributeValue.fromN("1500"), "finishedAt", AttributeValue.fromN("3000"),
                    "durationMs", AttributeValue.fromN("1500"))).build();
        }).when(dynamoDb).query(any(QueryRequest.class));
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(UpdateItemResponse.builder().build()).when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        s3 = mock(S3Client.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doReturn(PutObjectResponse.builder().build()).when(s3).putObject(any(PutObjectRequest.class), any(RequestBody.class));
        events = new JsonLinesRunEvents(dir.resolve("events.jsonl"), java.time.Clock.systemUTC());
        handler = new AggregatorHandler(ENV, dynamoDb, s3, events);
    }

    private Map<String, Object> invoke(String event) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(event.getBytes(StandardCharsets.UTF_8)), out, null);
        return Json.parseObject(out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void handleRequest_onDemandAnswersWithTheReport() throws Exception {
        Map<String, Object> report = invoke("{\"runId\": \"r1\"}");

        assertThat(report).containsEntry("runId", "r1").containsEntry("status", "complete");
        assertThat(report.get("window")).isEqualTo(Map.of("start", 1000L, "end", 3000L, "seconds", 2L,
                "definition", "last finishedAt - run createdAt"));
    }

    @Test
    void handleRequest_listsOnlyTheFailedMessagesOfAnSqsBatch() throws Exception {
        String event = """
                {"Records": [
                  {"messageId": "m1", "body": "{\\"runId\\": \\"r1\\"}"},
                  {"messageId": "m2", "body": "{\\"runId\\": \\"unknown-run\\"}"},
                  {"messageId": "m3", "body": "not json"},
                  {"messageId": "m4", "body": "{\\"runId\\": \\"r1\\"}"}
                ]}""";

        Map<String, Object> response = invoke(event);

        assertThat(response).isEqualTo(Map.of("batchItemFailures", List.of(
                Map.of("itemIdentifier", "m2"), Map.of("itemIdentifier", "m3"))));
        verify(dynamoDb, times(2)).putItem(any(PutItemRequest.class));
    }

    @Test
    @SuppressWarnings("unchecked")
    void handleRequest_pricesWithThePriceTableFileAndRunsPerMonthOfItsEnvironment() throws Exception {
        Path prices = dir.resolve("prices.json");
        Files.writeString(prices, "{\"date\": \"2030-01-01\"}");
        handler = new AggregatorHandler(Map.of("TABLE_NAME", "tbl", "REPORT_BUCKET", "bkt", "PRICE_TABLE_FILE", prices.toString(),
                "RUNS_PER_MONTH", "720"), dynamoDb, s3, events);

        Map<String, Object> cost = (Map<String, Object>) invoke("{\"runId\": \"r1\"}").get("cost");

        assertThat((Map<String, Object>) cost.get("priceTable")).containsEntry("date", "2030-01-01")
                .containsEntry("origin", "resource batchpipe/aggregator/cost/prices-us-east-1.json overridden by file " + prices);
        assertThat((Map<String, Object>) cost.get("monthly")).containsEntry("runsPerMonth", 720L);
    }

    @Test
    void constructor_saysWhichVariableIsWrong() {
        assertThatThrownBy(() -> new AggregatorHandler(Map.of("TABLE_NAME", "tbl", "REPORT_BUCKET", "bkt", "RUNS_PER_MONTH", "many"), dynamoDb,
                s3, events))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("environment variable RUNS_PER_MONTH must be a whole number, got 'many'");
    }

    @Test
    @SuppressWarnings("unchecked")
    void handleRequest_announcesTheCompletedRunThroughItsEvents() throws Exception {
        invoke("{\"runId\": \"r1\"}");

        List<String> lines = Files.readAllLines(dir.resolve("events.jsonl"));
        assertThat(lines).hasSize(1);
        Map<String, Object> event = Json.parseObject(lines.get(0));
        assertThat(event).containsEntry("source", "batchpipe").containsEntry("detail-type", "Run Completed");
        Map<String, Object> detail = (Map<String, Object>) event.get("detail");
        assertThat(detail).containsEntry("runId", "r1").containsEntry("status", "complete");
        assertThat((Map<String, Object>) detail.get("report")).containsEntry("uri", "s3://bkt/reports/r1/");
    }

    @Test
    void handleRequest_refusesAnEventWithoutRunId() {
        assertThatThrownBy(() -> invoke("{\"run\": \"r1\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the aggregator needs {\"runId\": \"...\"}; got fields [run]");
    }

    @Test
    void handleRequest_pricesTheInvocationsOfTheReportLinesItsSourceFinds() throws Exception {
        ReportLineSource oneLine = (run, tasks, deadline) -> new ReportLineSource.Found(
                List.of(new batchpipe.aggregator.cost.ReportLine("req-1", "worker", "arm64", 1769, 1_999.2, 2_000, 300.5, 412)),
                "one line, from the test");
        handler = new AggregatorHandler(AggregatorConfig.from(ENV), dynamoDb, s3, events, oneLine, java.time.Clock.systemUTC());

        Map<String, Object> report = invoke("{\"runId\": \"r1\"}");

        @SuppressWarnings("unchecked")
        Map<String, Object> durations = (Map<String, Object>) ((Map<String, Object>) report.get("cost")).get("durations");
        assertThat(durations).containsEntry("REPORT line", 1L).containsEntry("task records", 1L);
    }

    @Test
    void reportLineSource_withATableOnALocalEndpointAndNoLogsEndpoint_queriesNothingAndSaysWhy() {
        System.setProperty("aws.endpointUrlDynamoDb", "http://localhost:8000");
        try {
            ReportLineSource source = AggregatorHandler.reportLineSource(AggregatorConfig.from(Map.of("TABLE_NAME", "tbl", "REPORT_BUCKET", "bkt",
                    "REPORT_LINES", "logs-insights", "WORKER_LOG_GROUPS", "worker-logs")));

            ReportLineSource.Found found = source.find(null, List.of(), java.time.Instant.now());

            assertThat(found.lines()).isEmpty();
            assertThat(found.source()).startsWith("none: REPORT_LINES is logs-insights, but the runs table is on a local endpoint");
        } finally {
            System.clearProperty("aws.endpointUrlDynamoDb");
        }
    }

    @Test
    void runEvents_withTheTableOnALocalEndpointAndNoEventBridgeEndpoint_sendsNothingAndSaysWhy() {
        System.setProperty("aws.endpointUrlDynamoDb", "http://localhost:8000");
        try {
            RunEvents chosen = AggregatorHandler.runEvents(AggregatorConfig.from(ENV));

            assertThat(chosen).isInstanceOf(batchpipe.aggregator.delivery.LoggedRunEvents.class);
            assertThat(chosen.destination()).startsWith("not sent, logged: the runs table is on a local endpoint");
        } finally {
            System.clearProperty("aws.endpointUrlDynamoDb");
        }
    }

    @Test
    void runEvents_withRunEventsFile_appendsToThatFile() {
        Path file = dir.resolve("local/run-completed.jsonl");

        RunEvents chosen = AggregatorHandler.runEvents(AggregatorConfig.from(Map.of("TABLE_NAME", "tbl", "REPORT_BUCKET", "bkt",
                "RUN_EVENTS_FILE", file.toString())));

        assertThat(chosen).isInstanceOf(JsonLinesRunEvents.class);
        assertThat(chosen.destination()).isEqualTo(file.toString());
    }

    @Test
    void reportLinesDeadline_leavesTimeToWriteTheReportAndStaysWithinTheBudget() {
        java.time.Instant now = java.time.Instant.parse("2026-03-01T10:00:00Z");
        handler = new AggregatorHandler(AggregatorConfig.from(ENV), dynamoDb, s3, events, ReportLineSource.NONE,
                java.time.Clock.fixed(now, java.time.ZoneOffset.UTC));

        assertThat(handler.reportLinesDeadline(remaining(60_000))).isEqualTo(now.plusSeconds(30));
        assertThat(handler.reportLinesDeadline(remaining(900_000))).isEqualTo(now.plus(AggregatorHandler.REPORT_LINES_BUDGET));
    }

    /** A Lambda context that only knows its remaining time. */
    private static com.amazonaws.services.lambda.runtime.Context remaining(int millis) {
        return (com.amazonaws.services.lambda.runtime.Context) java.lang.reflect.Proxy.newProxyInstance(
                AggregatorHandlerTest.class.getClassLoader(), new Class<?>[]{com.amazonaws.services.lambda.runtime.Context.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("getRemainingTimeInMillis")) return millis;
                    throw new UnsupportedOperationException(method.getName());
                });
    }
}
