package batchpipe.worker.record;

import batchpipe.common.run.InvocationRecord;
import batchpipe.common.table.TableCall;
import batchpipe.worker.task.Invocation;
import batchpipe.worker.task.InvocationLedger;
import batchpipe.worker.task.WriteStats;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.InOrder;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.eq;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.withSettings;

class InvocationBooksTest {
    private static final Invocation INVOCATION = new Invocation("req-1", "batchpipe-worker", "$LATEST", 1769, "x86_64", 2, 1.0, true, 120L);

    private final DynamoDbClient dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
    private final TaskBooks books = mock(TaskBooks.class);
    private final InvocationBooks invocationBooks = new InvocationBooks(dynamoDb, "tbl", books);

    private static InvocationLedger ledgerOfTwoRunsOneCompleted() {
        InvocationLedger ledger = new InvocationLedger();
        WriteStats r1 = ledger.statsFor("r1");
        r1.time(TableCall.TASK_RECORD_READ, () -> null);
        r1.time(TableCall.TASK_RECORD_PUT, () -> null);
        r1.time(TableCall.PROGRESS_UPDATE, () -> null);
        ledger.taskClosed("r1");
        ledger.statsFor("r2").time(TableCall.TASK_RECORD_PUT, () -> null);
        ledger.taskClosed("r2");
        ledger.taskClosed("r2");
        ledger.runCompleted(new InvocationLedger.Completion("r1", "hash-000001", null, "m1"));
        return ledger;
    }

    @Test
    void finish_writesAnInvocationRecordPerRunBeforeAnnouncingTheRunItCompleted() {
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        org.mockito.Mockito.when(books.layout(org.mockito.ArgumentMatchers.anyString(), any()))
                .thenAnswer(call -> batchpipe.common.table.RunPartitions.legacy(call.getArgument(0)));

        assertThat(invocationBooks.finish(INVOCATION, ledgerOfTwoRunsOneCompleted(), 1_000L, 2_000L)).isEmpty();

        InOrder order = inOrder(dynamoDb, books);
        ArgumentCaptor<PutItemRequest> puts = ArgumentCaptor.forClass(PutItemRequest.class);
        order.verify(dynamoDb, org.mockito.Mockito.times(2)).putItem(puts.capture());
        order.verify(books).announceCompletion(eq("r1"), eq("hash-000001"), eq(null), any());
        List<InvocationRecord> records = puts.getAllValues().stream().map(p -> InvocationRecord.fromItem(p.item())).toList();
        assertThat(puts.getAllValues()).extracting(p -> p.item().get("pk").s()).containsExactly("run#r1", "run#r2");
        assertThat(records).extracting(InvocationRecord::runId).containsExactly("r1", "r2");
        InvocationRecord r1 = records.get(0);
        assertThat(r1.tasks()).isEqualTo(1);
        assertThat(r1.invocation().cold()).isTrue();
        assertThat(r1.invocation().initMs()).isEqualTo(120L);
        assertThat(r1.callsMs().keySet()).containsExactly(TableCall.TASK_RECORD_READ, TableCall.TASK_RECORD_PUT, TableCall.PROGRESS_UPDATE);
        assertThat(r1.callsMs().values()).allSatisfy(latencies -> assertThat(latencies).hasSize(1));
        assertThat(records.get(1).tasks()).isEqualTo(2);
        assertThat(puts.getAllValues().get(0).item().get("sk").s()).isEqualTo("invocation#req-1");
        assertThat(Map.copyOf(puts.getAllValues().get(0).item())).containsKey("callsMs");
    }

    @Test
    void finish_announcesEvenWhenAnInvocationRecordCannotBeWritten() {
        doThrow(new IllegalStateException("throttled")).when(dynamoDb).putItem(any(PutItemRequest.class));

        assertThat(invocationBooks.finish(INVOCATION, ledgerOfTwoRunsOneCompleted(), 1_000L, 2_000L)).isEmpty();

        org.mockito.Mockito.verify(books).announceCompletion(eq("r1"), eq("hash-000001"), eq(null), any());
    }

    @Test
    void finish_returnsTheMessageOfARunWhoseAnnouncementFailed() {
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doThrow(new IllegalStateException("SQS unavailable")).when(books).announceCompletion(any(), any(), any(), any());

        assertThat(invocationBooks.finish(INVOCATION, ledgerOfTwoRunsOneCompleted(), 1_000L, 2_000L)).containsExactly("m1");
    }
}
