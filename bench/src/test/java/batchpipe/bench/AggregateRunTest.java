package batchpipe.bench;

import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.cost.ItemSize;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.table.TableKeys;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.plan.PartitionSizing;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

class AggregateRunTest {
    private static final int TASKS = 2_000;

    @Test
    void millionTaskRun_isSpreadOverTheKeysTheProducerSizesItForAtTheTemplatesDefaultConcurrency() throws Exception {
        Matcher template = Pattern.compile("\\n  WorkerMaxConcurrency:\\n    Type: Number\\n    Default: (\\d+)\\n")
                .matcher(Files.readString(Path.of("..", "template.yaml")));
        assertThat(template.find()).as("template.yaml's WorkerMaxConcurrency parameter").isTrue();
        assertThat(RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY).isEqualTo(Integer.parseInt(template.group(1)));

        // 800,000 scans, 200,000 hash batches of 10 hashes at cost 10
        int producers = PartitionSizing.partitions(new PartitionSizing.Load(800_000, true, 200_000, 2_000_000, 10),
                Integer.parseInt(template.group(1)));
        assertThat(AggregateRun.partitionsFor(1_000_000)).isEqualTo(producers).isGreaterThan(1);
    }

    @Test
    void sharded_eachRecordIsOnTheKeyItsIdHashesTo_servedInSortKeyOrderWithinTheLimit() throws Exception {
        AggregateRun run = new AggregateRun(TASKS, AggregateRun.Layout.SHARDED);
        RunPartitions layout = run.layout();
        assertThat(layout.count()).isEqualTo(AggregateRun.partitionsFor(TASKS)).isGreaterThan(1);
        DynamoDbClient table = run.table();

        List<String> taskIds = new ArrayList<>(), requestIds = new ArrayList<>();
        for (String pk : layout.itemPks()) {
            for (Map<String, AttributeValue> item : queryAll(table, pk, TableKeys.TASK_PREFIX, 37)) {
                String taskId = TaskRecord.fromItem(item).taskId();
                assertThat(item.get(TableKeys.PK).s()).isEqualTo(pk).isEqualTo(layout.taskPk(taskId));
                taskIds.add(taskId);
            }
            for (Map<String, AttributeValue> item : queryAll(table, pk, TableKeys.INVOCATION_PREFIX, 7)) {
                String requestId = InvocationRecord.fromItem(item).invocation().requestId();
                assertThat(item.get(TableKeys.PK).s()).isEqualTo(pk).isEqualTo(layout.invocationPk(requestId));
                requestIds.add(requestId);
            }
        }
        assertThat(taskIds).containsExactlyInAnyOrderElementsOf(IntStream.range(0, TASKS).mapToObj(AggregateRun::taskId).toList());
        assertThat(requestIds).containsExactlyInAnyOrderElementsOf(
                IntStream.range(0, TASKS / AggregateRun.TASKS_PER_INVOCATION).mapToObj(AggregateRun::requestId).toList());
        assertThat(queryAll(table, layout.runPk(), TableKeys.TASK_PREFIX, 100)).as("no task record on the run record's key").isEmpty();
    }

    @Test
    void sharded_theRunRecordStatesTheLayout_andTheMergeReadsEveryRecordInSortKeyOrder() throws Exception {
        AggregateRun run = new AggregateRun(TASKS, AggregateRun.Layout.SHARDED);
        DynamoDbClient table = run.table();
        RunPartitions stated = RunPartition.layoutOf(table, "bench", AggregateRun.RUN_ID);
        assertThat(stated).isEqualTo(run.layout());

        List<String> merged = new ArrayList<>();
        RunPartition.forEachInSortKeyOrder(table, "bench", stated, TableKeys.INVOCATION_PREFIX, item -> merged.add(item.get(TableKeys.SK).s()));
        List<String> expected = IntStream.range(0, TASKS / AggregateRun.TASKS_PER_INVOCATION)
                .mapToObj(i -> InvocationRecord.sortKey(AggregateRun.requestId(i))).sorted(TableKeys.SORT_KEY_ORDER).toList();
        assertThat(merged).containsExactlyElementsOf(expected);
        assertThat(merged).as("req-10 sorts before req-2, as DynamoDB returns them").isNotEqualTo(
                IntStream.range(0, TASKS / AggregateRun.TASKS_PER_INVOCATION).mapToObj(i -> InvocationRecord.sortKey(AggregateRun.requestId(i))).toList());

        RunReader.StoredRun stored = new RunReader(table, "bench").read(AggregateRun.RUN_ID);
        assertThat(stored.run().partitions()).isEqualTo(run.layout().count());
        assertThat(stored.tasks()).extracting(TaskRecord::taskId)
                .containsExactlyElementsOf(IntStream.range(0, TASKS).mapToObj(AggregateRun::taskId).toList());
    }

    @Test
    void oneKey_everythingIsOnTheRunsKey_inPagesOfAtMostOneMegabyte() throws Exception {
        AggregateRun run = new AggregateRun(TASKS, AggregateRun.Layout.ONE_KEY);
        assertThat(run.layout().isLegacy()).isTrue();
        assertThat(RunPartition.layoutOf(run.table(), "bench", AggregateRun.RUN_ID).isLegacy()).isTrue();
        List<List<Map<String, AttributeValue>>> pages = pages(run.table(), TableKeys.runPk(AggregateRun.RUN_ID), TableKeys.TASK_PREFIX, null);
        assertThat(pages).hasSizeGreaterThan(1);
        for (List<Map<String, AttributeValue>> page : pages) {
            assertThat(page.stream().mapToLong(ItemSize::of).sum()).isLessThanOrEqualTo(AggregateRun.PAGE_BYTES);
        }
        assertThat(pages.stream().flatMap(List::stream).map(item -> item.get(TableKeys.SK).s()).toList())
                .containsExactlyElementsOf(IntStream.range(0, TASKS).mapToObj(n -> TableKeys.taskSk(AggregateRun.taskId(n))).toList());
    }

    /** A key's items, Query after Query, checking each page keeps to the limit and continues the sort-key order. */
    private static List<Map<String, AttributeValue>> queryAll(DynamoDbClient table, String pk, String prefix, int limit) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        for (List<Map<String, AttributeValue>> page : pages(table, pk, prefix, limit)) {
            assertThat(page.size()).isLessThanOrEqualTo(limit);
            items.addAll(page);
        }
        List<String> sks = items.stream().map(item -> item.get(TableKeys.SK).s()).toList();
        assertThat(sks).isSortedAccordingTo(TableKeys.SORT_KEY_ORDER).doesNotHaveDuplicates();
        Set<String> prefixes = new HashSet<>(sks.stream().map(sk -> sk.substring(0, prefix.length())).toList());
        assertThat(prefixes).isSubsetOf(prefix);
        return items;
    }

    private static List<List<Map<String, AttributeValue>>> pages(DynamoDbClient table, String pk, String prefix, Integer limit) {
        List<List<Map<String, AttributeValue>>> pages = new ArrayList<>();
        Map<String, AttributeValue> startKey = null;
        Function<Map<String, AttributeValue>, QueryRequest> request = start -> QueryRequest.builder().tableName("bench").consistentRead(true)
                .keyConditionExpression("pk = :pk AND begins_with(sk, :sk)").limit(limit).exclusiveStartKey(start)
                .expressionAttributeValues(Map.of(":pk", AttributeValue.fromS(pk), ":sk", AttributeValue.fromS(prefix))).build();
        do {
            QueryResponse response = table.query(request.apply(startKey));
            pages.add(response.items());
            startKey = response.hasLastEvaluatedKey() && !response.lastEvaluatedKey().isEmpty() ? response.lastEvaluatedKey() : null;
        } while (startKey != null);
        return pages;
    }
}
