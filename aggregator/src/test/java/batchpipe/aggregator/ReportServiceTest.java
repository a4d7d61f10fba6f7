package batchpipe.aggregator;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;
import static org.mockito.Mockito.withSettings;

class ReportServiceTest {
    private RunReader reader;
    private DynamoDbClient dynamoDb;
    private ReportService service;

    private static final Map<String, Object> TASK = Map.of("taskId", "hash-000001", "kind", "hash", "status", "done",
            "enqueuedAt", 1_000L, "startedAt", 1_500L, "finishedAt", 3_000L, "durationMs", 1_500L, "hashes", 4L);

    @BeforeEach
    void setUp() {
        reader = mock(RunReader.class);
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(UpdateItemResponse.builder().build()).when(dynamoDb).updateItem(any(UpdateItemRequest.class));
        service = new ReportService(reader, dynamoDb, "tbl");
    }

    private static Map<String, Object> run(long total) {
        return Map.of("createdAt", 1_000L, "planned", Map.of("hash", total, "total", total));
    }

    @Test
    void report_writesTheSummaryItemAndMarksACompleteRun() {
        when(reader.read("r1")).thenReturn(new RunReader.StoredRun(run(1), List.of(TASK)));

        Map<String, Object> report = service.report("r1");

        assertThat(report).containsEntry("status", "complete");
        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        assertThat(put.getValue().tableName()).isEqualTo("tbl");
        Map<String, AttributeValue> item = put.getValue().item();
        assertThat(item).containsEntry("pk", AttributeValue.fromS("run#r1")).containsEntry("sk", AttributeValue.fromS("summary"))
                .containsEntry("runId", AttributeValue.fromS("r1")).containsEntry("status", AttributeValue.fromS("complete"));
        assertThat(item.get("report").s()).isEqualTo(Json.write(report));
        ArgumentCaptor<UpdateItemRequest> update = ArgumentCaptor.forClass(UpdateItemRequest.class);
        verify(dynamoDb).updateItem(update.capture());
        assertThat(update.getValue().key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run")));
        assertThat(update.getValue().updateExpression()).isEqualTo("SET #status = :complete");
        assertThat(update.getValue().expressionAttributeNames()).isEqualTo(Map.of("#status", "status"));
        assertThat(update.getValue().expressionAttributeValues()).isEqualTo(Map.of(":complete", AttributeValue.fromS("complete")));
    }

    @Test
    void report_leavesAnIncompleteRunAsItIs() {
        when(reader.read("r1")).thenReturn(new RunReader.StoredRun(run(2), List.of(TASK)));

        Map<String, Object> report = service.report("r1");

        assertThat(report).containsEntry("status", "incomplete");
        verify(dynamoDb).putItem(any(PutItemRequest.class));
        verify(dynamoDb, never()).updateItem(any(UpdateItemRequest.class));
    }

    @Test
    void report_isTheSameWhenRunTwice() {
        when(reader.read("r1")).thenReturn(new RunReader.StoredRun(run(1), List.of(TASK)));

        assertThat(Json.write(service.report("r1"))).isEqualTo(Json.write(service.report("r1")));
    }

    @Test
    void report_refusesARunThatIsNotThere() {
        when(reader.read("r9")).thenReturn(new RunReader.StoredRun(null, List.of()));

        assertThatThrownBy(() -> service.report("r9"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run 'r9' not found in table tbl");
        verify(dynamoDb, never()).putItem(any(PutItemRequest.class));
    }
}
