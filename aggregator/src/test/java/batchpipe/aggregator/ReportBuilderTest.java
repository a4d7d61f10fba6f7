package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
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
    private static final RunRecord RUN = TaskRecords.run(null, 1_000, 0, 1, null);
    private static final TaskRecord TASK = TaskRecords.task("hash-000001", "hash").times(1_000L, 1_500, 3_000).hashed(4, 4)
            .invocation("req-1", "worker").platform("arm64", 1024).build();

    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final ReportBuilder builder = new ReportBuilder(new RunReader(dynamoDb, "tbl"), PriceTable.defaults(), CostAssumptions.defaults(),
            ReportLineSource.NONE);

    private void storedRun(RunRecord run, List<TaskRecord> tasks) {
        doAnswer(invocation -> {
            QueryRequest request = invocation.getArgument(0);
            boolean runRecord = request.expressionAttributeValues().get(":sk").s().equals("run");
            List<Map<String, AttributeValue>> items = !runRecord ? tasks.stream().map(TaskRecord::toItem).toList()
                    : run == null ? List.of() : List.of(run.toItem());
            return QueryResponse.builder().items(items).build();
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

        assertThat(report.summary().runId()).isEqualTo("r1");
        assertThat(report.summary().figures().status()).isEqualTo("complete");
        assertThat(report.summary().inputs()).isNull();
        assertThat(report.tasksCsv().render()).isEqualTo(batchpipe.aggregator.report.TasksCsv.render(List.of(TASK)));
        assertThat(report.report().inputs().reportLines()).isEqualTo(ReportInputs.NO_REPORT_LINES);
        verifyNoWrite();
    }

    @Test
    void build_withGivenInputs_usesThemAndWritesNothing() {
        storedRun(RUN, List.of(TASK));

        RunReport report = builder.build("r1", new ReportInputs(List.of(), "said by the test", CostAssumptions.defaults()));

        assertThat(report.report().inputs().reportLines()).isEqualTo("said by the test");
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
