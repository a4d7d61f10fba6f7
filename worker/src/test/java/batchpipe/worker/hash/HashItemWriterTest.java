package batchpipe.worker.hash;

import batchpipe.worker.task.WriteStats;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemRequest;
import software.amazon.awssdk.services.dynamodb.model.BatchWriteItemResponse;
import software.amazon.awssdk.services.dynamodb.model.PutRequest;
import software.amazon.awssdk.services.dynamodb.model.WriteRequest;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.CALLS_REAL_METHODS;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doReturn;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.withSettings;

class HashItemWriterTest {
    private static final String TABLE = "batchpipe-table";
    /** No sleeping between attempts: a ceiling of 0 ms. */
    private static final Backoff NO_WAIT = new Backoff(0, 0, 3);

    private DynamoDbClient dynamoDb;
    private HashItemWriter writer;

    @BeforeEach
    void setUp() {
        dynamoDb = mock(DynamoDbClient.class, withSettings().defaultAnswer(CALLS_REAL_METHODS));
        writer = new HashItemWriter(dynamoDb, TABLE, NO_WAIT);
    }

    private static Map<String, AttributeValue> item(int index) {
        return HashItemWriter.item("r1", "hash-000001", index, "$2a$04$hash" + index, 4);
    }

    private static WriteRequest put(Map<String, AttributeValue> item) {
        return WriteRequest.builder().putRequest(PutRequest.builder().item(item).build()).build();
    }

    private static List<Map<String, AttributeValue>> items(int n) {
        return IntStream.rangeClosed(1, n).mapToObj(HashItemWriterTest::item).toList();
    }

    private List<BatchWriteItemRequest> requests(int calls) {
        ArgumentCaptor<BatchWriteItemRequest> captor = ArgumentCaptor.forClass(BatchWriteItemRequest.class);
        verify(dynamoDb, times(calls)).batchWriteItem(captor.capture());
        return captor.getAllValues();
    }

    private static List<String> sortKeys(BatchWriteItemRequest request) {
        return request.requestItems().get(TABLE).stream().map(w -> w.putRequest().item().get("sk").s()).toList();
    }

    @Test
    void item_isKeyedByRunTaskAndIndex() {
        assertThat(HashItemWriter.item("r1", "hash-000002", 27, "$2a$04$abc", 4)).isEqualTo(Map.of(
                "pk", AttributeValue.fromS("run#r1"),
                "sk", AttributeValue.fromS("hash#hash-000002#000027"),
                "taskId", AttributeValue.fromS("hash-000002"),
                "index", AttributeValue.fromN("27"),
                "hash", AttributeValue.fromS("$2a$04$abc"),
                "cost", AttributeValue.fromN("4")));
    }

    @Test
    void write_sendsAllItemsInOneCall() throws Exception {
        doReturn(BatchWriteItemResponse.builder().build()).when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));
        WriteStats stats = new WriteStats();

        writer.write(items(25), stats);

        BatchWriteItemRequest request = requests(1).get(0);
        assertThat(request.requestItems()).containsOnlyKeys(TABLE);
        assertThat(request.requestItems().get(TABLE)).isEqualTo(items(25).stream().map(HashItemWriterTest::put).toList());
        assertThat(stats.calls()).isEqualTo(1);
    }

    @Test
    void write_retriesOnlyTheUnprocessedItems() throws Exception {
        doReturn(
                BatchWriteItemResponse.builder().unprocessedItems(Map.of(TABLE, List.of(put(item(2)), put(item(3))))).build(),
                BatchWriteItemResponse.builder().unprocessedItems(Map.of(TABLE, List.of(put(item(3))))).build(),
                BatchWriteItemResponse.builder().build())
                .when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));
        WriteStats stats = new WriteStats();

        writer.write(items(4), stats);

        List<BatchWriteItemRequest> requests = requests(3);
        assertThat(sortKeys(requests.get(0))).containsExactly(
                "hash#hash-000001#000001", "hash#hash-000001#000002", "hash#hash-000001#000003", "hash#hash-000001#000004");
        assertThat(sortKeys(requests.get(1))).containsExactly("hash#hash-000001#000002", "hash#hash-000001#000003");
        assertThat(sortKeys(requests.get(2))).containsExactly("hash#hash-000001#000003");
        assertThat(stats.calls()).isEqualTo(3);
    }

    @Test
    void write_givesUpAfterMaxAttempts() {
        doAnswer(invocation -> BatchWriteItemResponse.builder()
                .unprocessedItems(Map.of(TABLE, List.of(put(item(1))))).build())
                .when(dynamoDb).batchWriteItem(any(BatchWriteItemRequest.class));

        assertThatThrownBy(() -> writer.write(items(2), new WriteStats()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("DynamoDB left 1 hash items unprocessed after 3 attempts (throttled); the task will be retried");
        requests(3);
    }

    @Test
    void write_rejectsMoreThanTwentyFiveItems() {
        assertThatThrownBy(() -> writer.write(items(26), new WriteStats()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("BatchWriteItem takes at most 25 items, got 26");
        verify(dynamoDb, never()).batchWriteItem(any(BatchWriteItemRequest.class));
    }

    @Test
    void write_ofNoItemsMakesNoCall() throws Exception {
        writer.write(List.of(), new WriteStats());

        verify(dynamoDb, never()).batchWriteItem(any(BatchWriteItemRequest.class));
    }

    @Test
    void backoff_delayIsBetweenZeroAndTheCappedCeiling() {
        Backoff backoff = new Backoff(25, 2_000, 10);

        for (int i = 0; i < 200; i++) {
            assertThat(backoff.delayMs(1)).isBetween(0L, 50L);
            assertThat(backoff.delayMs(3)).isBetween(0L, 200L);
            assertThat(backoff.delayMs(10)).isBetween(0L, 2_000L);
            assertThat(backoff.delayMs(60)).isBetween(0L, 2_000L);
        }
        assertThat(NO_WAIT.delayMs(5)).isZero();
    }
}
