package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.CostModel;
import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.Invocations;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.aggregator.cost.UsageModel;
import batchpipe.aggregator.delivery.ReportDocuments;
import batchpipe.aggregator.report.TasksCsv;
import batchpipe.aggregator.stats.RunStatistics;
import batchpipe.common.json.Json;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.DeadLetter;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;
import batchpipe.common.table.TableCall;
import batchpipe.common.table.TableKeys;
import org.junit.jupiter.api.Test;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.dynamodb.model.QueryRequest;
import software.amazon.awssdk.services.dynamodb.model.QueryResponse;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.when;

/**
 * The streaming aggregation (records folded page by page, none kept) gives the report the in-memory path
 * gives (every record in a list: {@link RunStatistics#compute}, and the cost and usage models over the
 * list), on a 20,000-record run with everything that makes a figure depend on more than a sum: scan and
 * hash tasks on two architectures, failed, rejected and dead-lettered tasks, cold invocations, records
 * with and without SentTimestamp, approximate countBy paths, an extra attribute on a few records only,
 * REPORT lines for some invocations, and invocation records.
 */
class StreamingReportTest {
    private static final String RUN_ID = "stream-run";
    private static final int TASKS = 20_000;
    private static final PriceTable PRICES = PriceTable.defaults();
    private static final CostAssumptions ASSUMPTIONS = CostAssumptions.defaults();

    @Test
    void streamingReport_equalsTheInMemoryReportOnA20000RecordRun() {
        Random random = new Random(17);
        long createdAt = 1_764_000_000_000L;
        List<TaskRecord> tasks = tasks(random, createdAt);
        List<InvocationRecord> invocations = invocationRecords(tasks, random);
        RunRecord run = new RunRecord(RUN_ID, "stream", "{\"toleratedFailurePercent\":5,\"scan\":[{\"bucket\":\"logs\"},{\"bucket\":\"more-logs\"}]}",
                new Planned(16_000, 4_000, TASKS), 40_000, createdAt, "running", 25, (long) TASKS, null, List.of(), null, null,
                createdAt + 900);
        List<ReportLine> lines = reportLines(tasks);
        ReportInputs inputs = new ReportInputs(lines, "test lines", ASSUMPTIONS);

        List<BilledInvocation> billed = Invocations.of(tasks, lines);
        Report inMemory = new Report(RunStatistics.compute(RUN_ID, run, tasks, invocations),
                new CostModel(PRICES).compute(tasks, billed, UsageModel.measure(run, tasks, billed, ASSUMPTIONS, PRICES), ASSUMPTIONS),
                new Report.Inputs("test lines", billed));
        AtomicInteger pages = new AtomicInteger();
        try (RunReport streamed = new ReportBuilder(new RunReader(pagedTable(run, tasks, invocations, pages), "t"), PRICES, ASSUMPTIONS,
                ReportLineSource.NONE).build(RUN_ID, inputs)) {

            assertThat(pages.get()).as("Query pages of at most 1 MB").isGreaterThan(3);
            assertThat(Json.writePretty(streamed.report())).isEqualTo(Json.writePretty(inMemory));
            assertThat(streamed.tasksCsv().render()).isEqualTo(TasksCsv.render(tasks));
            assertThat(streamed.tasksCsv().renderCountBy()).isEqualTo(TasksCsv.renderCountBy(tasks)).contains("\r\nscan-1,level,");
            assertThat(ReportDocuments.render(streamed).keySet()).containsExactlyElementsOf(ReportDocuments.FILE_NAMES);
        }
        // the figures that could go wrong only on such a run are in it
        assertThat(inMemory.figures().countByAccuracy()).isNotEmpty();
        assertThat(inMemory.figures().problems()).hasSize(50);
        assertThat(inMemory.figures().dynamoDbCalls()).isNotNull();
        assertThat(inMemory.figures().overall().coldStarts().coldInvocations()).isPositive();
    }

    /**
     * A run written over several partition keys: the streaming path merges the keys' Queries, the in-memory path
     * ({@link RunReader#read}, every record in a list, and the list renderers) sorts what it gathered; every
     * report file is the same bytes, tasks.csv's row order and every tie-break included.
     */
    @Test
    void streamingReport_ofARunOverSeveralPartitionKeysGivesTheInMemoryPathsFilesByteForByte() {
        Random random = new Random(23);
        long createdAt = 1_764_000_000_000L;
        // pages of 800 tasks, each counted in its page's shard, whatever its id hashes to
        List<TaskRecord> tasks = tasks(random, createdAt).stream()
                .map(t -> t.withProgressShard(Integer.parseInt(t.taskId().substring(5)) / 800)).toList();
        List<InvocationRecord> invocations = invocationRecords(tasks, random);
        RunRecord run = new RunRecord(RUN_ID, "stream", "{\"toleratedFailurePercent\":5,\"scan\":[{\"bucket\":\"logs\"},{\"bucket\":\"more-logs\"}]}",
                new Planned(16_000, 4_000, TASKS), 40_000, createdAt, "running", 25, (long) TASKS, null, List.of(), null, null,
                createdAt + 900, 4, null);
        List<ReportLine> lines = reportLines(tasks);
        ReportInputs inputs = new ReportInputs(lines, "test lines", ASSUMPTIONS);
        AtomicInteger queries = new AtomicInteger();
        DynamoDbClient table = partitionedTable(run, tasks, invocations, queries);

        RunReader.StoredRun stored = new RunReader(table, "t").read(RUN_ID);
        assertThat(stored.tasks()).as("the in-memory path reads them all back in task-id order")
                .map(TaskRecord::taskId).containsExactlyElementsOf(tasks.stream().map(TaskRecord::taskId).toList());
        List<BilledInvocation> billed = Invocations.of(stored.tasks(), lines);
        Report inMemory = new Report(RunStatistics.compute(RUN_ID, stored.run(), stored.tasks(), stored.invocations()),
                new CostModel(PRICES).compute(stored.tasks(), billed,
                        UsageModel.measure(stored.run(), stored.tasks(), billed, ASSUMPTIONS, PRICES), ASSUMPTIONS),
                new Report.Inputs("test lines", billed));
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(ReportDocuments.REPORT_JSON, Json.writePretty(inMemory) + "\n");
        expected.put(ReportDocuments.TASKS_CSV, TasksCsv.render(stored.tasks()));
        expected.put(ReportDocuments.COUNT_BY_CSV, TasksCsv.renderCountBy(stored.tasks()));

        queries.set(0);
        try (RunReport streamed = new ReportBuilder(new RunReader(table, "t"), PRICES, ASSUMPTIONS, ReportLineSource.NONE)
                .build(RUN_ID, inputs)) {
            Map<String, String> files = ReportDocuments.render(streamed);
            for (Map.Entry<String, String> file : expected.entrySet()) {
                assertThat(files.get(file.getKey())).as(file.getKey()).isEqualTo(file.getValue());
            }
        }
        assertThat(queries.get()).as("each key read in several pages").isGreaterThan(4 * 4);
        // the run is spread, and read one key after another it would not come in task-id order
        Map<String, List<String>> idsByKey = new TreeMap<>();
        tasks.forEach(t -> idsByKey.computeIfAbsent(run.layout().taskPk(t.taskId()), k -> new ArrayList<>()).add(t.taskId()));
        assertThat(idsByKey).hasSize(4);
        assertThat(idsByKey.values().stream().flatMap(List::stream).toList()).isNotEqualTo(tasks.stream().map(TaskRecord::taskId).toList());
        assertThat(expected.get(ReportDocuments.TASKS_CSV)).contains("progressShard");
    }

    /**
     * A table holding the run's items on the keys its layout gives them; a Query answers one key's items in
     * sort-key (UTF-8 byte) order, in pages of at most its Limit or 1 MB.
     */
    private static DynamoDbClient partitionedTable(RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> invocations,
                                                   AtomicInteger queries) {
        Map<String, List<Map<String, AttributeValue>>> byKey = new TreeMap<>();
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        items.add(run.toItem());
        tasks.forEach(t -> items.add(t.toItem(run.layout())));
        invocations.forEach(r -> items.add(r.toItem(run.layout())));
        for (Map<String, AttributeValue> item : items) byKey.computeIfAbsent(item.get(TableKeys.PK).s(), k -> new ArrayList<>()).add(item);
        byKey.values().forEach(key -> key.sort(Comparator.comparing(i -> i.get(TableKeys.SK).s(), TableKeys.SORT_KEY_ORDER)));
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(call -> {
            queries.incrementAndGet();
            QueryRequest request = call.getArgument(0);
            String pk = request.expressionAttributeValues().get(":pk").s();
            AttributeValue skValue = request.expressionAttributeValues().get(":sk");
            boolean exact = request.keyConditionExpression().contains("sk = :sk");
            String after = request.exclusiveStartKey() == null || request.exclusiveStartKey().isEmpty() ? null
                    : request.exclusiveStartKey().get(TableKeys.SK).s();
            int limit = request.limit() == null ? Integer.MAX_VALUE : request.limit();
            List<Map<String, AttributeValue>> page = new ArrayList<>();
            long bytes = 0;
            for (Map<String, AttributeValue> item : byKey.getOrDefault(pk, List.of())) {
                String sk = item.get(TableKeys.SK).s();
                if (skValue != null && (exact ? !sk.equals(skValue.s()) : !sk.startsWith(skValue.s()))) continue;
                if (after != null && TableKeys.SORT_KEY_ORDER.compare(sk, after) <= 0) continue;
                long size = batchpipe.aggregator.cost.ItemSize.of(item);
                if (!page.isEmpty() && (bytes + size > 1_000_000 || page.size() == limit)) {
                    Map<String, AttributeValue> last = page.get(page.size() - 1);
                    return QueryResponse.builder().items(page)
                            .lastEvaluatedKey(Map.of(TableKeys.PK, last.get(TableKeys.PK), TableKeys.SK, last.get(TableKeys.SK))).build();
                }
                page.add(item);
                bytes += size;
            }
            return QueryResponse.builder().items(page).build();
        });
        return dynamoDb;
    }

    private static List<TaskRecord> tasks(Random random, long createdAt) {
        List<TaskRecord> tasks = new ArrayList<>();
        String[] levels = {"INFO", "WARN", "ERROR", "DEBUG"};
        for (int i = 0; i < TASKS; i++) {
            boolean scan = i % 5 != 0;
            String taskId = (scan ? "scan-" : "hash-") + i; // ids of different lengths, so progress-unit ties matter
            int invocation = i / 10;
            boolean arm = invocation % 3 == 0;
            String requestId = i % 997 == 0 ? null : "req-" + invocation;
            boolean cold = invocation % 40 == 0;
            WorkerInvocation worker = requestId == null ? WorkerInvocation.NONE
                    : new WorkerInvocation(requestId, arm ? "worker-arm" : "worker", "7", arm ? 1769 : 2048, arm ? "arm64" : "x86_64",
                    2, 1.0, cold, cold ? 200L + invocation % 50 : null);
            long started = createdAt + 1_000 + random.nextInt(600_000);
            long duration = scan ? 200 + random.nextInt(3_000) : 5_000 + random.nextInt(9_000);
            // a few finish in the same millisecond as another task
            long finished = i % 50 == 1 ? tasks.get(i - 1).finishedAt() : started + duration;
            Long sentAt = i % 7 == 0 ? null : started - random.nextInt(5_000);
            TaskStatus status = i % 211 == 0 ? TaskStatus.FAILED : i % 307 == 0 ? TaskStatus.REJECTED : TaskStatus.DONE;
            ScanOutcome scanned = null;
            HashOutcome hashed = null;
            if (scan) {
                Map<String, Map<String, Long>> countBy = new TreeMap<>();
                Map<String, Long> level = new TreeMap<>();
                for (String l : levels) if (random.nextBoolean()) level.put(l, 1L + random.nextInt(1000));
                countBy.put("level", level);
                Map<String, Long> user = new TreeMap<>();
                for (int v = 0; v < 5; v++) user.put("user-" + random.nextInt(300), 1L + random.nextInt(20));
                countBy.put("user", user);
                Map<String, CountAccuracy> accuracy = i % 400 == 3
                        ? new TreeMap<>(Map.of("level", CountAccuracy.EXACT, "user", new CountAccuracy(false, 3, false))) : null;
                scanned = new ScanOutcome("bucket", "logs/" + i + ".zst", 1_000 + random.nextInt(50_000), random.nextInt(3),
                        List.of(), 0, 1_000_000 + random.nextInt(5_000_000), 200_000 + random.nextInt(900_000), countBy,
                        Map.of("level", (long) level.size(), "user", 5L), i % 13 == 0 ? Map.of("user", 4L) : null, accuracy, null);
            } else {
                hashed = new HashOutcome(10, 10);
            }
            DeadLetter deadLetter = requestId == null ? new DeadLetter(finished, 3) : null;
            tasks.add(TaskRecord.builder().runId(RUN_ID).taskId(taskId).kind(scan ? "scan" : "hash").status(status)
                    .reason(status == TaskStatus.DONE ? null : "boom " + i).enqueuedAt(createdAt + 500).startedAt(started)
                    .finishedAt(finished).attempt(1).invocation(worker)
                    .writes(requestId == null ? null : new WriteTimes(3, 4.25 + random.nextInt(10), 3.5)).scan(scanned).hash(hashed)
                    .recordedBy(requestId == null ? "dead-letter recorder" : null).deadLetter(deadLetter).sentAt(sentAt).build());
        }
        tasks.sort(Comparator.comparing(TaskRecord::taskId)); // a Query's order
        return tasks;
    }

    private static List<InvocationRecord> invocationRecords(List<TaskRecord> tasks, Random random) {
        Map<String, WorkerInvocation> byRequest = new LinkedHashMap<>();
        for (TaskRecord t : tasks) if (t.invocation().requestId() != null) byRequest.putIfAbsent(t.invocation().requestId(), t.invocation());
        List<InvocationRecord> records = new ArrayList<>();
        int n = 0;
        for (WorkerInvocation invocation : byRequest.values()) {
            if (n++ % 10 == 9) continue; // some invocations could not write their record
            Map<TableCall, List<Double>> calls = new EnumMap<>(TableCall.class);
            calls.put(TableCall.TASK_RECORD_PUT, List.of(3.0 + random.nextInt(900) / 100.0, 2.5));
            calls.put(TableCall.PROGRESS_UPDATE, List.of(5.125 + random.nextInt(40)));
            records.add(new InvocationRecord(RUN_ID, invocation, 0, 0, 10, calls));
        }
        records.sort(Comparator.comparing(r -> r.invocation().requestId()));
        return records;
    }

    private static List<ReportLine> reportLines(List<TaskRecord> tasks) {
        Map<String, WorkerInvocation> byRequest = new TreeMap<>();
        for (TaskRecord t : tasks) if (t.invocation().requestId() != null) byRequest.putIfAbsent(t.invocation().requestId(), t.invocation());
        List<ReportLine> lines = new ArrayList<>();
        int n = 0;
        for (WorkerInvocation w : byRequest.values()) {
            if (n++ % 2 == 0) lines.add(new ReportLine(w.requestId(), w.functionName(), w.architecture(), w.memoryMb(), 1234.5, 1235,
                    w.cold() ? 250.5 : null, 180));
        }
        lines.add(new ReportLine("aggregator-1", "aggregator", "x86_64", 1024, 900.0, 900, 400.0, 300));
        return lines;
    }

    /** A table whose Query answers in pages of at most 1 MB of items, as DynamoDB does. */
    private static DynamoDbClient pagedTable(RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> invocations, AtomicInteger pages) {
        List<Map<String, AttributeValue>> items = new ArrayList<>();
        items.add(run.toItem());
        tasks.forEach(t -> items.add(t.toItem()));
        invocations.forEach(r -> items.add(r.toItem()));
        items.sort(Comparator.comparing(i -> i.get(TableKeys.SK).s()));
        DynamoDbClient dynamoDb = mock(DynamoDbClient.class);
        when(dynamoDb.query(any(QueryRequest.class))).thenAnswer(call -> {
            QueryRequest request = call.getArgument(0);
            String prefix = request.expressionAttributeValues().get(":sk").s();
            String after = request.exclusiveStartKey() == null || request.exclusiveStartKey().isEmpty() ? null
                    : request.exclusiveStartKey().get(TableKeys.SK).s();
            List<Map<String, AttributeValue>> page = new ArrayList<>();
            long bytes = 0;
            for (Map<String, AttributeValue> item : items) {
                String sk = item.get(TableKeys.SK).s();
                if (!sk.startsWith(prefix) || (after != null && sk.compareTo(after) <= 0)) continue;
                long size = batchpipe.aggregator.cost.ItemSize.of(item);
                if (!page.isEmpty() && bytes + size > 1_000_000) {
                    pages.incrementAndGet();
                    Map<String, AttributeValue> last = page.get(page.size() - 1);
                    return QueryResponse.builder().items(page)
                            .lastEvaluatedKey(Map.of(TableKeys.PK, last.get(TableKeys.PK), TableKeys.SK, last.get(TableKeys.SK))).build();
                }
                page.add(item);
                bytes += size;
            }
            pages.incrementAndGet();
            return QueryResponse.builder().items(page).build();
        });
        return dynamoDb;
    }
}
