package batchpipe.aggregator;

import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

class RunReaderTest {
    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
    private final RunReader reader = new RunReader(dynamoDb, "tbl");

    private static Map<String, AttributeValue> item(String sk, Map<String, AttributeValue> rest) {
        Map<String, AttributeValue> item = new java.util.HashMap<>(rest);
        item.put("pk", AttributeValue.fromS("run#r1"));
        item.put("sk", AttributeValue.fromS(sk));
        item.put("runId", AttributeValue.fromS("r1"));
        if (sk.startsWith("task#")) {
            item.put("taskId", AttributeValue.fromS(sk.substring("task#".length())));
            item.putIfAbsent("status", AttributeValue.fromS("done"));
        }
        return item;
    }

    @Test
    void read_returnsTheRunRecordAndEveryTaskRecordOverAllPages() {
        Map<String, AttributeValue> pageKey = Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("task#b"));
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            String prefix = request.expressionAttributeValues().get(":sk").s();
            if (prefix.equals("run")) {
                return QueryResponse.builder().items(item("run", Map.of("status", AttributeValue.fromS("running"),
                        "createdAt", AttributeValue.fromN("1000")))).build();
            }
            if (request.exclusiveStartKey().isEmpty()) {
                return QueryResponse.builder()
                        .items(item("task#a", Map.of("durationMs", AttributeValue.fromN("5"))),
                                item("task#b", Map.of("durationMs", AttributeValue.fromN("7"))))
                        .lastEvaluatedKey(pageKey).build();
            }
            return QueryResponse.builder().items(item("task#c", Map.of("durationMs", AttributeValue.fromN("15")))).build();
        });

        RunReader.StoredRun stored = reader.read("r1");

        assertThat(stored.run().runId()).isEqualTo("r1");
        assertThat(stored.run().status()).isEqualTo("running");
        assertThat(stored.run().createdAt()).isEqualTo(1000L);
        assertThat(stored.tasks()).extracting(TaskRecord::taskId).containsExactly("a", "b", "c");
        assertThat(stored.tasks()).extracting(TaskRecord::durationMs).containsExactly(5L, 7L, 15L);
        ArgumentCaptor<QueryRequest> captor = ArgumentCaptor.forClass(QueryRequest.class);
        verify(dynamoDb, times(3)).query(captor.capture());
        List<QueryRequest> requests = captor.getAllValues();
        assertThat(requests).allSatisfy(r -> {
            assertThat(r.tableName()).isEqualTo("tbl");
            assertThat(r.consistentRead()).isTrue();
            assertThat(r.keyConditionExpression()).isEqualTo("pk = :pk AND begins_with(sk, :sk)");
            assertThat(r.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("run#r1"));
        });
        assertThat(requests.get(1).expressionAttributeValues()).containsEntry(":sk", AttributeValue.fromS("task#"));
        assertThat(requests.get(2).exclusiveStartKey()).isEqualTo(pageKey);
    }

    @Test
    void read_ofAnUnknownRunHasNoRecordAndNoTasks() {
        when(dynamoDb.query(any(QueryRequest.class))).thenReturn(QueryResponse.builder().build());

        RunReader.StoredRun stored = reader.read("nope");

        assertThat(stored.run()).isNull();
        assertThat(stored.tasks()).isEmpty();
    }

    @Test
    void read_refusesATaskRecordOfTheWrongShapeNamingItAndTheAttribute() {
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            if (request.expressionAttributeValues().get(":sk").s().equals("run")) return QueryResponse.builder().build();
            return QueryResponse.builder().items(item("task#a", Map.of("durationMs", AttributeValue.fromS("five")))).build();
        });

        assertThatThrownBy(() -> reader.read("r1")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("task record task#a").hasMessageContaining("'durationMs' is not a number");
    }
}
