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
        verify(dynamoDb, times(2)).query(requests.capture());
        QueryRequest first = requests.getAllValues().get(0);
        assertThat(first.tableName()).isEqualTo("tbl");
        assertThat(first.consistentRead()).isTrue();
        assertThat(first.expressionAttributeValues()).containsEntry(":pk", AttributeValue.fromS("run#r1"))
                .containsEntry(":sk", AttributeValue.fromS("progress#"));
        assertThat(first.keyConditionExpression()).isEqualTo("pk = :pk AND begins_with(sk, :sk)");
        assertThat(first.exclusiveStartKey()).isEmpty();
        assertThat(requests.getAllValues().get(1).exclusiveStartKey()).isEqualTo(lastKey);
    }

    @Test
    void complete_whenEveryPlannedTaskIsFinished() {
        assertThat(new RunProgress(5, 5, 4, 1, 0).complete()).isTrue();
        assertThat(new RunProgress(5, 4, 4, 0, 0).complete()).isFalse();
        assertThat(new RunProgress(0, 0, 0, 0, 0).complete()).isFalse();
    }
}
