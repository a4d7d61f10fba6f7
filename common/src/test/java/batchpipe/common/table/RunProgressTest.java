package batchpipe.common.table;

import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

class RunProgressTest {

    private static Map<String, AttributeValue> shard(String sk, long planned, List<String> counted, long done, long rejected, long failed) {
        Map<String, AttributeValue> item = new java.util.HashMap<>();
        item.put("pk", AttributeValue.fromS("run#r1"));
        item.put("sk", AttributeValue.fromS(sk));
        item.put("planned", AttributeValue.fromN(Long.toString(planned)));
        if (!counted.isEmpty()) item.put("counted", AttributeValue.fromSs(counted));
        if (done > 0) item.put("done", AttributeValue.fromN(Long.toString(done)));
        if (rejected > 0) item.put("rejected", AttributeValue.fromN(Long.toString(rejected)));
        if (failed > 0) item.put("failed", AttributeValue.fromN(Long.toString(failed)));
        return item;
    }

    @Test
    void read_sumsEveryShardOverAllPages() {
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        Map<String, AttributeValue> lastKey = Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("progress#001"));
        when(dynamoDb.query(any(QueryRequest.class))).thenReturn(
                // the run record: of the single-key layout (no partitions), planned in one go
                QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run"),
                        "shards", AttributeValue.fromN("3"))).build(),
                QueryResponse.builder()
                        .items(shard("progress#000", 3, List.of("a", "b", "c"), 2, 1, 0),
                                shard("progress#001", 4, List.of("d"), 1, 0, 0))
                        .lastEvaluatedKey(lastKey).build(),
                QueryResponse.builder()
                        .items(shard("progress#002", 2, List.of(), 0, 0, 0))
                        .build());

        RunProgress progress = RunProgress.read(dynamoDb, "tbl", "r1");

        assertThat(progress).isEqualTo(new RunProgress(9, 4, 3, 1, 0));
        assertThat(progress.complete()).isFalse();
        ArgumentCaptor<QueryRequest> requests = ArgumentCaptor.forClass(QueryRequest.class);
        verify(dynamoDb, times(3)).query(requests.capture());
        assertThat(requests.getAllValues().get(0).expressionAttributeValues()).containsEntry(":sk", AttributeValue.fromS("run"));
        QueryRequest first = requests.getAllValues().get(1);
        assertThat(first.tableName()).isEqualTo("tbl");
        assertThat(first.consistentRead()).isTrue();
        assertThat(first.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("run#r1"))
                .containsEntry(":sk", AttributeValue.fromS("progress#"));
        assertThat(first.keyConditionExpression()).isEqualTo("pk = :pk AND begins_with(sk, :sk)");
        assertThat(first.exclusiveStartKey()).isEmpty();
        assertThat(requests.getAllValues().get(2).exclusiveStartKey()).isEqualTo(lastKey);
    }

    @Test
    void read_queriesEveryPartitionOfAPartitionedRunAndIsNotCompleteWhilePlanning() {
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(call -> {
            QueryRequest request = call.getArgument(0);
            String pk = request.expressionAttributeValues().get(":pk").s();
            return switch (pk) {
                case "run#r1" -> QueryResponse.builder().items(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run"),
                        "partitions", AttributeValue.fromN("2"), "planning", AttributeValue.fromM(Map.of()))).build();
                case "run#r1#0" -> QueryResponse.builder().items(shard("progress#000", 2, List.of("a", "b"), 2, 0, 0)).build();
                case "run#r1#1" -> QueryResponse.builder().items(shard("progress#001", 1, List.of("c"), 0, 0, 1)).build();
                default -> throw new AssertionError("query of " + pk);
            };
        });

        RunProgress progress = RunProgress.read(dynamoDb, "tbl", "r1");

        assertThat(progress).isEqualTo(new RunProgress(3, 3, 2, 0, 1, true));
        assertThat(progress.complete()).as("more pages may come while the run is being planned").isFalse();
        verify(dynamoDb, times(3)).query(any(QueryRequest.class));
    }

    @Test
    void complete_whenEveryPlannedTaskIsFinished() {
        assertThat(new RunProgress(5, 5, 4, 1, 0).complete()).isTrue();
        assertThat(new RunProgress(5, 4, 4, 0, 0).complete()).isFalse();
        assertThat(new RunProgress(0, 0, 0, 0, 0).complete()).isFalse();
        assertThat(new RunProgress(5, 5, 5, 0, 0, true).complete()).isFalse();
    }
}
