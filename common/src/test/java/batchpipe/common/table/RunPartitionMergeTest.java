package batchpipe.common.table;

import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * {@link RunPartition#forEachInSortKeyOrder}: a run over several keys handed over in the order one key's
 * Query would give, DynamoDB's (UTF-8 bytes), in pages no larger than the merge asks for.
 */
class RunPartitionMergeTest {
    private static final RunPartitions LAYOUT = RunPartitions.of("r1", 3);

    /** A table holding {@code taskIds}' records on their keys; a Query answers in sort-key order, Limit items a page. */
    private static DynamoDbClient table(List<String> taskIds, Map<String, AtomicInteger> queriesByKey, List<Integer> limits) {
        Map<String, List<String>> skByKey = new TreeMap<>();
        for (String id : taskIds) skByKey.computeIfAbsent(LAYOUT.taskPk(id), k -> new ArrayList<>()).add(TableKeys.taskSk(id));
        skByKey.values().forEach(sks -> sks.sort(TableKeys.SORT_KEY_ORDER));
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(call -> {
            QueryRequest request = call.getArgument(0);
            String pk = request.expressionAttributeValues().get(":pk").s();
            queriesByKey.computeIfAbsent(pk, k -> new AtomicInteger()).incrementAndGet();
            limits.add(request.limit());
            String after = request.exclusiveStartKey() == null || request.exclusiveStartKey().isEmpty() ? null
                    : request.exclusiveStartKey().get(TableKeys.SK).s();
            List<Map<String, AttributeValue>> page = new ArrayList<>();
            List<String> sks = skByKey.getOrDefault(pk, List.of());
            int i = 0;
            while (i < sks.size() && after != null && TableKeys.SORT_KEY_ORDER.compare(sks.get(i), after) <= 0) i++;
            for (; i < sks.size() && page.size() < request.limit(); i++) {
                page.add(Map.of(TableKeys.PK, AttributeValue.fromS(pk), TableKeys.SK, AttributeValue.fromS(sks.get(i))));
            }
            QueryResponse.Builder response = QueryResponse.builder().items(page);
            if (i < sks.size()) response.lastEvaluatedKey(page.get(page.size() - 1));
            return response.build();
        });
        return dynamoDb;
    }

    @Test
    void merge_handsOverEveryKeysItemsInUtf8ByteOrder_notJavasStringOrder() {
        List<String> ids = new ArrayList<>();
        for (int i = 0; i < 10_000; i++) ids.add("scan-" + i); // over 2,666 a key: each key takes several pages
        // U+FFFD sorts after U+1F600 in Java's UTF-16 order, before it in UTF-8 bytes (EF BF BD < F0 9F 98 80)
        ids.add("x-\uFFFD");
        ids.add("x-\uD83D\uDE00");
        Collections.shuffle(ids, new java.util.Random(5));
        Map<String, AtomicInteger> queries = new ConcurrentHashMap<>();
        List<Integer> limits = Collections.synchronizedList(new ArrayList<>());

        List<String> merged = new ArrayList<>();
        RunPartition.forEachInSortKeyOrder(table(ids, queries, limits), "tbl", LAYOUT, TableKeys.TASK_PREFIX,
                item -> merged.add(item.get(TableKeys.SK).s()));

        List<String> expected = new ArrayList<>(ids.stream().map(TableKeys::taskSk).toList());
        expected.sort(TableKeys.SORT_KEY_ORDER);
        assertThat(merged).containsExactlyElementsOf(expected);
        assertThat(merged.indexOf("task#x-\uFFFD")).isLessThan(merged.indexOf("task#x-\uD83D\uDE00"));
        assertThat("task#x-\uFFFD").isGreaterThan("task#x-\uD83D\uDE00"); // what a String sort would have done
        // every key read, each in pages of at most 16,000 / (2 x 3) items
        assertThat(queries).hasSize(3);
        assertThat(limits).allMatch(limit -> limit == RunPartition.MERGE_BUFFER_ITEMS / 6);
        assertThat(queries.values()).allMatch(n -> n.get() >= 2);
    }

    @Test
    void merge_ofAKeyWhoseQueryFailsThrowsTheFailure() {
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenThrow(new IllegalStateException("throttled"));

        assertThatThrownBy(() -> RunPartition.forEachInSortKeyOrder(dynamoDb, "tbl", LAYOUT, TableKeys.TASK_PREFIX, item -> { }))
                .isInstanceOf(IllegalStateException.class).hasMessage("throttled");
    }
}
