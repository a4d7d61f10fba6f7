package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.table.ItemCodec;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.DeleteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;
import software.amazon.awssdk.services.dynamodb.model.TransactWriteItemsRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class ReportBuilderTest {
    private static final Instant DEADLINE = Instant.parse("2030-01-01T00:00:00Z");
    private static final Map<String, Object> RUN = Map.of("pk", "run#r1", "sk", "run", "createdAt", 1_000L,
            "planned", Map.of("hash", 1L, "total", 1L));
    private static final Map<String, Object> TASK = Map.ofEntries(Map.entry("pk", "run#r1"), Map.entry("sk", "task#hash-000001"),
            Map.entry("taskId", "hash-000001"), Map.entry("kind", "hash"), Map.entry("status", "done"), Map.entry("enqueuedAt", 1_000L),
            Map.entry("startedAt", 1_500L), Map.entry("finishedAt", 3_000L), Map.entry("durationMs", 1_500L), Map.entry("hashes", 4L),
            Map.entry("requestId", "req-1"), Map.entry("functionName", "worker"), Map.entry("architecture", "arm64"),
            Map.entry("memoryMb", 1024L));

    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final ReportBuilder builder = new ReportBuilder(new RunReader(dynamoDb, "tbl"), PriceTable.defaults(), CostAssumptions.defaults(),
            ReportLineSource.NONE);

    private void storedRun(Map<String, Object> run, List<Map<String, Object>> tasks) {
        doAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            boolean runRecord = request.expressionAttributeValues().get(":sk").s().equals("run");
            List<Map<String, Object>> items = !runRecord ? tasks : run == null ? List.<Map<String, Object>>of() : List.of(run);
            return QueryResponse.builder().items(items.stream().map(ItemCodec::toItem).toList()).build();
        }).when(dynamoDb).query(any(QueryRequest.class));
    }

    private void verifyNoWrite() {
        verify(dynamoDb, never()).putItem(any(PutItemRequest.class));
        verify(dynamoDb, never()).updateItem(any(UpdateItemRequest.class));
        verify(dynamoDb, never()).deleteItem(any(DeleteItemRequest.class));
        verify(dynamoDb, never()).batchWriteItem(any(BatchWriteItemRequest.class));
        verify(dynamoDb, never()).transactWriteItems(any(TransactWriteItemsRequest.class));
    }

    @Test
    void build_reportsACompleteRunFromItsRecordsAndWritesNothing() {
        storedRun(RUN, List.of(TASK));

        RunReport report = builder.build("r1", DEADLINE);

        assertThat(report.summary()).containsEntry("runId", "r1").containsEntry("status", "complete");
        assertThat(report.tasks()).hasSize(1);
        assertThat(((Map<?, ?>) report.report().get("inputs")).get("reportLines")).isEqualTo(ReportInputs.NO_REPORT_LINES);
        verifyNoWrite();
    }

    @Test
    void build_withGivenInputs_usesThemAndWritesNothing() {
        storedRun(RUN, List.of(TASK));

        RunReport report = builder.build("r1", new ReportInputs(List.of(), "said by the test", CostAssumptions.defaults()));

        assertThat(((Map<?, ?>) report.report().get("inputs")).get("reportLines")).isEqualTo("said by the test");
        verifyNoWrite();
    }

    @Test
    void build_refusesARunThatIsNotThereNamingTheTable() {
        storedRun(null, List.of());

        assertThatThrownBy(() -> builder.build("r9", DEADLINE)).isInstanceOf(IllegalArgumentException.class)
                .hasMessage("run 'r9' not found in table tbl");
        verifyNoWrite();
    }
}
