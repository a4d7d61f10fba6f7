package batchpipe.worker.hash;

import batchpipe.common.task.HashTask;
import batchpipe.worker.task.WriteStats;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mindrot.jbcrypt.BCrypt;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.mock;

class HashExecutorTest {
    private static final Instant AT = Instant.parse("2026-11-30T01:02:03Z");

    private ForkJoinPool pool;
    private HashItemWriter writer;
    private final List<List<Map<String, AttributeValue>>> written = Collections.synchronizedList(new ArrayList<>());
    private HashExecutor executor;

    @BeforeEach
    void setUp() throws Exception {
        pool = new ForkJoinPool(2);
        writer = mock(HashItemWriter.class);
        doAnswer(invocation -> {
            written.add(List.copyOf(invocation.<List<Map<String, AttributeValue>>>getArgument(0)));
            return null;
        }).when(writer).write(anyList(), any(WriteStats.class));
        executor = new HashExecutor(pool, writer);
    }

    @AfterEach
    void tearDown() {
        pool.shutdownNow();
    }

    private List<Map<String, AttributeValue>> allItems() {
        return written.stream().flatMap(List::stream).toList();
    }

    @Test
    void execute_storesAHashOfEveryPasswordThatVerifies() throws Exception {
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 30, "password_", 1, null);

        int stored = executor.execute(task, new WriteStats());

        assertThat(stored).isEqualTo(30);
        List<Map<String, AttributeValue>> items = allItems();
        assertThat(items).hasSize(30);
        for (Map<String, AttributeValue> item : items) {
            long index = Long.parseLong(item.get("index").n());
            String password = String.format(java.util.Locale.ROOT, "password_%06d", index);
            String hash = item.get("hash").s();
            assertThat(hash).startsWith("$2a$04$").hasSize(60);
            assertThat(BCrypt.checkpw(password, hash)).as("hash of %s", password).isTrue();
            assertThat(BCrypt.checkpw("password_999999", hash)).isFalse();
        }
    }

    @Test
    void execute_keysItemsByTaskAndSixDigitIndex() throws Exception {
        HashTask task = new HashTask("r1", "hash-000002", AT, 4, 30, "password_", 31, null);

        executor.execute(task, new WriteStats());

        List<Map<String, AttributeValue>> items = allItems();
        assertThat(items).extracting(i -> i.get("sk").s()).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(31, 60).mapToObj(i -> String.format(java.util.Locale.ROOT, "hash#hash-000002#%06d", i)).toList());
        assertThat(items).allSatisfy(item -> {
            assertThat(item.get("pk")).isEqualTo(AttributeValue.fromS("run#r1"));
            assertThat(item.get("taskId")).isEqualTo(AttributeValue.fromS("hash-000002"));
            assertThat(item.get("cost")).isEqualTo(AttributeValue.fromN("4"));
        });
        Map<String, AttributeValue> first = items.stream().filter(i -> i.get("index").n().equals("31")).findFirst().orElseThrow();
        assertThat(first.get("sk").s()).isEqualTo("hash#hash-000002#000031");
        assertThat(BCrypt.checkpw("password_000031", first.get("hash").s())).isTrue();
    }

    @Test
    void execute_writesInChunksOfAtMostTwentyFive() throws Exception {
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 60, "password_", 1, null);

        executor.execute(task, new WriteStats());

        assertThat(written).extracting(List::size).containsExactly(25, 25, 10);
    }

    @Test
    void execute_hashesGivenInputs() throws Exception {
        HashTask task = new HashTask("r1", "hash-000009", AT, 4, 2, null, 1, List.of("correct horse", "battery staple"));

        executor.execute(task, new WriteStats());

        List<Map<String, AttributeValue>> items = allItems();
        assertThat(items).hasSize(2);
        Map<String, AttributeValue> one = items.stream().filter(i -> i.get("index").n().equals("1")).findFirst().orElseThrow();
        Map<String, AttributeValue> two = items.stream().filter(i -> i.get("index").n().equals("2")).findFirst().orElseThrow();
        assertThat(BCrypt.checkpw("correct horse", one.get("hash").s())).isTrue();
        assertThat(BCrypt.checkpw("battery staple", two.get("hash").s())).isTrue();
        assertThat(one.get("sk").s()).isEqualTo("hash#hash-000009#000001");
    }

    @Test
    void execute_usesTheTaskCost() throws Exception {
        HashTask task = new HashTask("r1", "hash-000001", AT, 5, 1, "password_", 1, null);

        executor.execute(task, new WriteStats());

        assertThat(allItems().get(0).get("hash").s()).startsWith("$2a$05$");
        assertThat(allItems().get(0).get("cost")).isEqualTo(AttributeValue.fromN("5"));
    }

    @Test
    void execute_letsAWriteFailurePropagate() throws Exception {
        doThrow(new IllegalStateException("DynamoDB left 3 hash items unprocessed"))
                .when(writer).write(anyList(), any(WriteStats.class));
        HashTask task = new HashTask("r1", "hash-000001", AT, 4, 3, "password_", 1, null);

        assertThatThrownBy(() -> executor.execute(task, new WriteStats()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessage("DynamoDB left 3 hash items unprocessed");
    }
}
