package batchpipe.aggregator;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
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
    private DynamoDbClient dynamoDb;
    private AggregatorHandler handler;

    @BeforeEach
    void setUp() {
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        // Run r1 exists with one finished task; every other run is unknown.
        doAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            if (!request.expressionAttributeValues().get(":pk").s().equals("run#r1")) return QueryResponse.builder().build();
            if (request.expressionAttributeValues().get(":sk").s().equals("run")) {
                return QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run"),
                        "createdAt", AttributeValue.fromN("1000"),
                        "planned", AttributeValue.fromM(Map.of("total", AttributeValue.fromN("1"))))).build();
            }
            return QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("task#t1"),
                    "taskId", AttributeValue.fromS("t1"), "status", AttributeValue.fromS("done"),
                    "startedAt", AttributeValue.fromN("1500"), "finishedAt", AttributeValue.fromN("3000"),
                    "durationMs", AttributeValue.fromN("1500"))).build();
        }).when(dynamoDb).query(any(QueryRequest.class));
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(UpdateItemResponse.builder().build()).when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        handler = new AggregatorHandler("tbl", dynamoDb);
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
    void handleRequest_refusesAnEventWithoutRunId() {
        assertThatThrownBy(() -> invoke("{\"run\": \"r1\"}"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("the aggregator needs {\"runId\": \"...\"}; got fields [run]");
    }
}
