package batchpipe.producer.run;

import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.ConditionalCheckFailedException;
import software.amazon.awssdk.services.dynamodb.model.GetItemRequest;
import software.amazon.awssdk.services.dynamodb.model.GetItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.dynamodb.model.PutItemResponse;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemRequest;
import software.amazon.awssdk.services.dynamodb.model.UpdateItemResponse;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class RunStoreTest {
    private DynamoDbClient dynamoDb;
    private RunStore store;

    @BeforeEach
    void setUp() {
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        store = new RunStore(dynamoDb, "batchpipe-table");
    }

    private List<BatchWriteItemRequest> batchWrites(int calls) {
        ArgumentCaptor<BatchWriteItemRequest> captor = ArgumentCaptor.forClass(BatchWriteItemRequest.class);
        verify(dynamoDb, times(calls)).batchWriteItem(captor.capture());
        return captor.getAllValues();
    }

    private static List<String> sortKeys(List<WriteRequest> writes) {
        return writes.stream().map(w -> w.putRequest().item().get("sk").s()).toList();
    }

    @Test
    void claimForInvocation_tiesAFreshRequestIdToTheRunIdOnAKeyOfItsOwn() {
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));

        assertThat(store.claimForInvocation("req-1", "r-new", 5L)).isEqualTo("r-new");

        ArgumentCaptor<PutItemRequest> put = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(put.capture());
        assertThat(put.getValue().conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        assertThat(put.getValue().item().get("pk").s()).isEqualTo("invocation#req-1");
        assertThat(put.getValue().item().get("runId").s()).isEqualTo("r-new");
    }

    @Test
    void claimForInvocation_returnsTheRunIdAnEarlierAttemptOfTheSameInvocationChose() {
        doThrow(ConditionalCheckFailedException.builder().message("exists").build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        doReturn(GetItemResponse.builder().item(Map.of("pk", AttributeValue.fromS("invocation#req-1"), "sk", AttributeValue.fromS("producer"),
                "runId", AttributeValue.fromS("r-first"))).build()).when(dynamoDb).getItem(any(GetItemRequest.class));

        assertThat(store.claimForInvocation("req-1", "r-second", 6L)).isEqualTo("r-first");
        ArgumentCaptor<GetItemRequest> get = ArgumentCaptor.forClass(GetItemRequest.class);
        verify(dynamoDb).getItem(get.capture());
        assertThat(get.getValue().consistentRead()).isTrue();
    }

    @Test
    void create_putsTheRunRecordOnlyIfTheRunIdIsFree() {
        doReturn(PutItemResponse.builder().build()).when(dynamoDb).putItem(any(PutItemRequest.class));
        store.create(RunRecord.planned("r1", null, "{}", new Planned(2, 0, 2), 0, 1_000L, 1));

        ArgumentCaptor<PutItemRequest> captor = ArgumentCaptor.forClass(PutItemRequest.class);
        verify(dynamoDb).putItem(captor.capture());
        PutItemRequest request = captor.getValue();
        assertThat(request.tableName()).isEqualTo("batchpipe-table");
        assertThat(request.conditionExpression()).isEqualTo("attribute_not_exists(pk)");
        assertThat(request.item()).containsOnly(
                Map.entry("pk", AttributeValue.fromS("run#r1")),
                Map.entry("sk", AttributeValue.fromS("run")),
                Map.entry("runId", AttributeValue.fromS("r1")),
                Map.entry("spec", AttributeValue.fromS("{}")),
                Map.entry("status", AttributeValue.fromS("running")),
                Map.entry("planned", AttributeValue.fromM(Map.of("scan", AttributeValue.fromN("2"), "hash", AttributeValue.fromN("0"),
                        "total", AttributeValue.fromN("2")))),
                Map.entry("hashesPlanned", AttributeValue.fromN("0")),
                Map.entry("createdAt", AttributeValue.fromN("1000")),
                Map.entry("shards", AttributeValue.fromN("1")));
    }

    @Test
    void create_turnsConditionalCheckFailedIntoRunExists() {
        doThrow(ConditionalCheckFailedException.builder().message("The conditional request failed").build())
                .when(dynamoDb).putItem(any(PutItemRequest.class));

        assertThatThrownBy(() -> store.create(RunRecord.planned("r1", null, "{}", new Planned(1, 0, 1), 0, 1_000L, 1)))
                .isInstanceOf(RunStore.RunExistsException.class)
                .hasMessage("run 'r1' already exists; nothing was sent. Re-planning a run is refused so that no task is"
                        + " enqueued twice: omit runId for a new run, or pick another id");
    }

    @Test
    void createProgressShards_writesThePlannedCountOfEachShard() {
        doReturn(BatchWriteItemResponse.builder().build()).when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));

        // crc32 modulo 3: hash-000001 -> 1, hash-000002 -> 2, a -> 0, 123456789 -> 2.
        store.createProgressShards("r1", List.of("hash-000001", "hash-000002", "a", "123456789"), 3);

        BatchWriteItemRequest request = batchWrites(1).get(0);
        List<WriteRequest> writes = request.requestItems().get("batchpipe-table");
        assertThat(writes).hasSize(3);
        assertThat(writes).extracting(w -> w.putRequest().item()).containsExactly(
                Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("progress#000"), "planned", AttributeValue.fromN("1")),
                Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("progress#001"), "planned", AttributeValue.fromN("1")),
                Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("progress#002"), "planned", AttributeValue.fromN("2")));
    }

    @Test
    void createProgressShards_writesInBatchesOfTwentyFiveAndRetriesUnprocessedItems() {
        List<String> taskIds = IntStream.rangeClosed(1, 30).mapToObj(i -> "t" + i).toList();
        // The second batch (5 shards) first leaves progress#027 unprocessed.
        WriteRequest[] left = new WriteRequest[1];
        doAnswer(invocation -> {
            BatchWriteItemRequest request = invocation.getArgument(0);
            List<WriteRequest> writes = request.requestItems().get("batchpipe-table");
            if (writes.size() == 5 && left[0] == null) {
                left[0] = writes.get(2);
                return BatchWriteItemResponse.builder().unprocessedItems(Map.of("batchpipe-table", List.of(left[0]))).build();
            }
            return BatchWriteItemResponse.builder().build();
        }).when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));

        store.createProgressShards("r1", taskIds, 30);

        List<BatchWriteItemRequest> requests = batchWrites(3);
        assertThat(sortKeys(requests.get(0).requestItems().get("batchpipe-table")))
                .hasSize(25).startsWith("progress#000").endsWith("progress#024");
        assertThat(sortKeys(requests.get(1).requestItems().get("batchpipe-table")))
                .containsExactly("progress#025", "progress#026", "progress#027", "progress#028", "progress#029");
        assertThat(sortKeys(requests.get(2).requestItems().get("batchpipe-table"))).containsExactly("progress#027");
        long planned = requests.stream().limit(2)
                .flatMap(r -> r.requestItems().get("batchpipe-table").stream())
                .mapToLong(w -> Long.parseLong(w.putRequest().item().get("planned").n())).sum();
        assertThat(planned).isEqualTo(30);
    }

    @Test
    void createProgressShards_givesUpAfterTenAttempts() {
        doAnswer(invocation -> {
            BatchWriteItemRequest request = invocation.getArgument(0);
            return BatchWriteItemResponse.builder().unprocessedItems(request.requestItems()).build();
        }).when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));

        assertThatThrownBy(() -> store.createProgressShards("r1", List.of("a"), 1))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("could not write the progress shards of run r1 in 10 attempts (DynamoDB left some unprocessed each time)");
        batchWrites(10);
    }

    @Test
    void markEnqueued_setsTheEnqueuedCountAndWhenSendingFinishedOnTheRunRecord() {
        doReturn(UpdateItemResponse.builder().build()).when(dynamoDb).updateItem(any(UpdateItemRequest.class));

        store.markEnqueued("r1", 2_540, 9_000L);

        ArgumentCaptor<UpdateItemRequest> captor = ArgumentCaptor.forClass(UpdateItemRequest.class);
        verify(dynamoDb).updateItem(captor.capture());
        UpdateItemRequest request = captor.getValue();
        assertThat(request.tableName()).isEqualTo("batchpipe-table");
        assertThat(request.key()).isEqualTo(Map.of("pk", AttributeValue.fromS("run#r1"), "sk", AttributeValue.fromS("run")));
        assertThat(request.updateExpression()).isEqualTo("SET enqueued = :n, sendFinishedAt = :at");
        assertThat(request.expressionAttributeValues()).isEqualTo(Map.of(":n", AttributeValue.fromN("2540"), ":at", AttributeValue.fromN("9000")));
    }
}
