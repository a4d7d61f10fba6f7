package batchpipe.local.report;

import batchpipe.report.Display;
import batchpipe.local.cli.InProcessCli;
import batchpipe.common.json.Json;
import batchpipe.common.table.ProgressShards;
import batchpipe.local.demo.Demo;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * A real run on the local stack, then the report checked against what a person can recompute by hand:
 * the percentiles from tasks.csv's columns, and every cost figure from tasks.csv, the price table and the
 * inputs report.json lists. The formulas here are written out again from docs/COST.md, not taken from
 * the aggregator's code.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportIT {
    private static final BigDecimal MB_MS_PER_GB_SECOND = BigDecimal.valueOf(1_024_000);
    private static final BigDecimal MILLION = BigDecimal.valueOf(1_000_000);

    @TempDir
    static Path out;

    private LocalStack stack;
    private Demo.Outcome outcome;
    private Map<String, Object> report;
    private List<Map<String, String>> rows;
    private Map<String, Object> prices;
    /** The report files in the local bucket and the summary item, as the demo left them (a later test reports the run again). */
    private final Map<String, String> bucketFiles = new java.util.LinkedHashMap<>();
    private Map<String, software.amazon.awssdk.services.dynamodb.model.AttributeValue> summaryItem;

    @BeforeAll
    void runTheDemo() throws Exception {
        StackTemplate template = StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of());
        stack = SharedEmulators.stack(template, "reportit");
        stack.useForThisProcess();
        try (LocalPipeline pipeline = LocalPipeline.start(stack, new PrintStream(OutputStream.nullOutputStream()), true)) {
            outcome = new Demo(pipeline).run(Demo.Settings.builder().objects(3).linesPerObject(1_000).hashBatches(3).hashBatchSize(4)
                    .hashCost(4).seed(11).outDir(out.resolve("run")).timeout(Duration.ofMinutes(3)).build(), (done, total) -> { });
        }
        report = Json.parseObject(Files.readString(out.resolve("run/report.json")));
        for (String file : ReportFiles.RUN_FILES) {
            bucketFiles.put(file, stack.s3().getObjectAsBytes(b -> b.bucket(stack.ref("DataBucket"))
                    .key("reports/" + outcome.runId() + "/" + file)).asUtf8String());
        }
        summaryItem = stack.dynamoDb().getItem(b -> b.tableName(stack.ref("RunsTable")).consistentRead(true).key(Map.of(
                "pk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("run#" + outcome.runId()),
                "sk", software.amazon.awssdk.services.dynamodb.model.AttributeValue.fromS("summary")))).item();
        rows = CsvRows.parse(Files.readString(out.resolve("run/tasks.csv")));
        try (InputStream in = getClass().getClassLoader().getResourceAsStream("batchpipe/aggregator/cost/prices-us-east-1.json")) {
            prices = Json.parseObject(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        }
    }

    @AfterAll
    void stopTheStack() {
        if (stack != null) stack.close();
    }

    @Test
    void demo_writesTheFourReportFiles() {
        for (String file : List.of("report.json", "report.md", "tasks.csv", "report.html")) {
            assertThat(out.resolve("run").resolve(file)).isNotEmptyFile();
        }
        assertThat(rows).hasSize(6);
        assertThat(report).containsEntry("runId", outcome.runId()).containsEntry("status", "complete");
    }

    @Test
    void demo_putsTheSameFourFilesInTheLocalBucketAndTheSummaryNamesThem() throws Exception {
        for (String file : ReportFiles.RUN_FILES) {
            assertThat(bucketFiles.get(file)).as("reports/<runId>/" + file).isEqualTo(Files.readString(out.resolve("run").resolve(file)));
        }
        assertThat(outcome.reportLocation().uri()).isEqualTo("s3://" + stack.ref("DataBucket") + "/reports/" + outcome.runId() + "/");
        assertThat(summaryItem).doesNotContainKey("report");
        assertThat(summaryItem.get("reportKeys").l()).extracting(v -> v.s()).containsExactlyElementsOf(
                ReportFiles.RUN_FILES.stream().map(f -> "reports/" + outcome.runId() + "/" + f).toList());
        // DynamoDB's item size: attribute names and values; the strings are UTF-8, the whole item well under 4 KB
        int size = summaryItem.entrySet().stream().mapToInt(e -> e.getKey().length() + e.getValue().toString().getBytes(StandardCharsets.UTF_8).length)
                .sum();
        assertThat(size).isLessThan(4_096);
    }

    @Test
    @SuppressWarnings("unchecked")
    void completedRun_isAnnouncedOnceInTheLocalStacksEventsFile() throws Exception {
        Path events = stack.runEventsFile();
        assertThat(outcome.completionEvent()).isEqualTo(events.toAbsolutePath().toString());
        List<Map<String, Object>> ofThisRun = Files.readAllLines(events).stream().map(Json::parseObject)
                .filter(e -> outcome.runId().equals(((Map<String, Object>) e.get("detail")).get("runId"))).toList();
        // the aggregator's; the demo's second report with the REPORT lines announces nothing
        assertThat(ofThisRun).hasSize(1);
        Map<String, Object> event = ofThisRun.get(0);
        assertThat(event).containsEntry("source", "batchpipe").containsEntry("detail-type", "Run Completed");
        Map<String, Object> detail = (Map<String, Object>) event.get("detail");
        assertThat(detail).containsEntry("label", "demo").containsEntry("status", "complete");
        assertThat((Map<String, Object>) detail.get("headline")).containsEntry("tasks", 6L);
        assertThat((Map<String, Object>) detail.get("report")).containsEntry("uri", outcome.reportLocation().uri());
    }

    @Test
    void reportCompare_readsARunsReportJsonThroughItsSummaryItem() {
        Path comparison = out.resolve("compare-by-id");
        InProcessCli.Result compare = cli("report", "--compare", outcome.runId(), out.resolve("run").toString(), "--local-stack-name", "reportit",
                "--out", comparison.toString());

        assertThat(compare.exitCode()).as(compare.err()).isZero();
        assertThat(comparison.resolve("compare.md")).isNotEmptyFile();
    }

    @Test
    void percentiles_equalTheNearestRankOfTasksCsvsColumns() {
        for (String kind : List.of("all", "scan", "hash")) {
            List<Map<String, String>> ofKind = rows.stream().filter(r -> kind.equals("all") || r.get("kind").equals(kind)).toList();
            Map<String, Object> latency = map(report, kind.equals("all") ? List.of("overall", "latency") : List.of("byKind", kind, "latency"));
            check(map(latency, List.of("taskDurationMs")), ofKind.stream().map(r -> num(r, "durationMs")).toList());
            // the wait starts when SQS accepted the message (sentAt, its SentTimestamp), as the report's latencyDefinitions say
            check(map(latency, List.of("queueWaitMs")), ofKind.stream().map(r -> num(r, "startedAt") - num(r, "sentAt")).toList());
            check(map(latency, List.of("endToEndMs")), ofKind.stream().map(r -> num(r, "finishedAt") - num(r, "sentAt")).toList());
        }
    }

    private static void check(Map<String, Object> reported, List<Long> values) {
        List<Long> sorted = values.stream().sorted().toList();
        int n = sorted.size();
        assertThat(reported.get("count")).isEqualTo((long) n);
        for (String p : List.of("50", "90", "95", "99", "99.9")) {
            // rank = ceil(p / 100 x n), 1-based
            int rank = new BigDecimal(p).multiply(BigDecimal.valueOf(n)).divide(BigDecimal.valueOf(100), 0, RoundingMode.CEILING).intValue();
            assertThat(reported.get("p" + p)).as("p" + p).isEqualTo(sorted.get(rank - 1));
        }
        assertThat(reported.get("max")).isEqualTo(sorted.get(n - 1));
    }

    @Test
    @SuppressWarnings("unchecked")
    void lambdaCost_equalsTheInvocationsPricedByHandAndTheInvocationsMatchTasksCsv() {
        List<Map<String, Object>> invocations = (List<Map<String, Object>>) map(report, List.of("inputs")).get("invocations");
        // every worker request id of tasks.csv is one priced invocation, with that many tasks, on that platform
        Map<String, List<Map<String, String>>> byRequest = rows.stream().collect(Collectors.groupingBy(r -> r.get("requestId")));
        for (Map.Entry<String, List<Map<String, String>>> e : byRequest.entrySet()) {
            Map<String, Object> invocation = invocations.stream().filter(i -> i.get("requestId").equals(e.getKey())).findFirst().orElseThrow();
            assertThat(invocation).containsEntry("tasks", (long) e.getValue().size())
                    .containsEntry("architecture", e.getValue().get(0).get("architecture"))
                    .containsEntry("memoryMb", num(e.getValue().get(0), "memoryMb"))
                    .containsEntry("function", e.getValue().get(0).get("functionName"))
                    .containsEntry("source", "REPORT line");
        }
        // the producer and the aggregator were invoked too, and are priced
        assertThat(invocations).extracting(i -> i.get("function")).contains("reportit-ProducerFunction", "reportit-AggregatorFunction");

        BigDecimal expected = lambdaCost(invocations);
        assertThat((BigDecimal) map(report, List.of("cost", "lambda")).get("cost")).isEqualByComparingTo(written(expected));
    }

    @Test
    @SuppressWarnings("unchecked")
    void totalCost_equalsWhatTasksCsvThePriceTableAndTheListedInputsGive() {
        Map<String, Object> cost = map(report, List.of("cost"));
        Map<String, Object> inputs = map(cost, List.of("usageInputs"));
        List<Map<String, Object>> invocations = (List<Map<String, Object>>) map(report, List.of("inputs")).get("invocations");
        long n = rows.size();
        long m = (Long) inputs.get("messageBytes");
        long chunk = (Long) map(prices, List.of("sqs")).get("requestChunkBytes");
        String workerFunction = rows.get(0).get("functionName");
        List<Map<String, Object>> workers = invocations.stream().filter(i -> i.get("function").equals(workerFunction)).toList();

        // SQS: SendMessageBatch of 10, ReceiveMessage and DeleteMessageBatch per worker batch, 3 for the completion message
        long sends = (n / 10) * ceil(10 * m, chunk) + (n % 10 == 0 ? 0 : ceil((n % 10) * m, chunk));
        long receives = workers.stream().mapToLong(i -> Math.max(1, ceil((Long) i.get("tasks") * m, chunk))).sum();
        long sqs = sends + receives + workers.size() + 3;
        assertThat(map(cost, List.of("sqs")).get("total")).isEqualTo(sqs);

        // DynamoDB write units: hash items, task records, progress updates, run record writes, progress items
        long shards = (Long) inputs.get("shards");
        long runBytes = (Long) inputs.get("runRecordBytes");
        long hashes = rows.stream().mapToLong(r -> num(r, "hashes")).sum();
        long recordUnits = rows.stream().mapToLong(r -> ceil(num(r, "itemBytes"), 1024)).sum();
        long wru = hashes + recordUnits + progressUnits(shards) + (3 + shards) * ceil(runBytes, 1024) + shards;
        assertThat(map(cost, List.of("dynamoDb")).get("totalWriteUnits")).isEqualTo(wru);
        // read units: a check per task, the run record per new worker instance, the aggregator's Query
        long coldWorkers = workers.stream().filter(i -> (Long) i.get("initBilledMs") > 0).count();
        long taskBytes = rows.stream().mapToLong(r -> num(r, "itemBytes")).sum();
        long rru = n + coldWorkers * ceil(runBytes, 4096) + ceil(runBytes, 4096) + ceil(taskBytes, 4096);
        assertThat(map(cost, List.of("dynamoDb")).get("totalReadUnits")).isEqualTo(rru);

        // S3: a GET per scan task, LIST pages of 1,000 keys per source
        long gets = rows.stream().filter(r -> r.get("kind").equals("scan")).count();
        long lists = Math.max((Long) inputs.get("scanSources"), ceil((Long) inputs.get("plannedScanTasks"), 1000));

        BigDecimal total = lambdaCost(invocations)
                .add(price("sqs", "perMillionRequests").multiply(BigDecimal.valueOf(sqs)).divide(MILLION))
                .add(price("dynamoDb", "perMillionWriteRequestUnits").multiply(BigDecimal.valueOf(wru)).divide(MILLION))
                .add(price("dynamoDb", "perMillionReadRequestUnits").multiply(BigDecimal.valueOf(rru)).divide(MILLION))
                .add(price("s3", "perThousandGetRequests").multiply(BigDecimal.valueOf(gets)).divide(BigDecimal.valueOf(1000)))
                .add(price("s3", "perThousandListRequests").multiply(BigDecimal.valueOf(lists)).divide(BigDecimal.valueOf(1000)));
        assertThat((BigDecimal) cost.get("total")).isEqualByComparingTo(written(total));
        assertThat((BigDecimal) cost.get("perMillionTasks"))
                .isEqualByComparingTo(written(total.multiply(MILLION).divide(BigDecimal.valueOf(n), new MathContext(20, RoundingMode.HALF_EVEN))));
    }

    @Test
    void reportRecompute_reportsTheRunAgainFromTheTableAndComparesItWithTheDemosReport() throws Exception {
        Path again = out.resolve("again");
        InProcessCli.Result rerun = cli("report", outcome.runId(), "--recompute", "--local-stack-name", "reportit", "--out", again.toString());

        assertThat(rerun.exitCode()).as(rerun.err()).isZero();
        assertThat(rerun.err()).startsWith("batchpipe report: recomputed run " + outcome.runId() + " from table reportit-");
        assertThat(rerun.out()).isEqualTo(Files.readString(again.resolve("report.md")));
        for (String file : List.of("report.json", "report.md", "tasks.csv", "report.html")) assertThat(again.resolve(file)).isNotEmptyFile();
        assertThat(again.resolve("countby.csv")).exists();
        Map<String, Object> measured = Json.parseObject(Files.readString(again.resolve("report.json")));
        // without the runtime's REPORT lines, the worker invocations are measured from tasks.csv, and the latencies are the same
        assertThat(map(measured, List.of("cost", "durations"))).containsEntry("REPORT line", 0L)
                .containsEntry("task records", rows.stream().map(r -> r.get("requestId")).distinct().count());
        assertThat(map(measured, List.of("overall", "latency"))).isEqualTo(map(report, List.of("overall", "latency")));
        assertThat(Files.readString(again.resolve("tasks.csv"))).isEqualTo(Files.readString(out.resolve("run/tasks.csv")));

        Path comparison = out.resolve("compare");
        InProcessCli.Result compare = cli("report", "--compare", out.resolve("run").toString(), again.resolve("report.json").toString(),
                "--out", comparison.toString());

        assertThat(compare.exitCode()).as(compare.err()).isZero();
        Object p50 = map(report, List.of("overall", "latency", "taskDurationMs")).get("p50");
        String shownP50 = Display.duration(((Number) p50).doubleValue());
        assertThat(compare.out()).contains("| latency | taskDurationMs p50 | " + shownP50 + " | " + shownP50 + " | 0 ms | 1 |");
        assertThat(comparison.resolve("compare.md")).isNotEmptyFile();
        assertThat(comparison.resolve("compare.html")).isNotEmptyFile();
    }

    @Test
    void reportCommand_refusesLogsInsightsWhereThereAreNoLogsAndNamesTheBadValue() {
        InProcessCli.Result local = cli("report", outcome.runId(), "--recompute", "--local-stack-name", "reportit", "--report-lines", "logs-insights");
        InProcessCli.Result unknown = cli("report", outcome.runId(), "--recompute", "--local-stack-name", "reportit", "--report-lines", "cloudwatch");
        InProcessCli.Result contradictory = cli("report", outcome.runId(), "--recompute", "--local-stack-name", "reportit", "--report-lines", "none", "--log-group", "g");
        InProcessCli.Result badName = cli("report", outcome.runId(), "--recompute", "--table", "t", "--log-group", "not a group");

        assertThat(local.exitCode()).isNotZero();
        assertThat(local.err()).contains("--report-lines logs-insights needs a deployed stack (--stack NAME");
        assertThat(unknown.err()).contains("--report-lines is 'cloudwatch'; it must be one of [logs-insights, none]");
        assertThat(contradictory.err()).contains("--log-group is only used with --report-lines logs-insights");
        assertThat(badName.err()).contains("--log-group: 'not a group' is not a log group name");
    }

    @Test
    void reportHtml_rendersInHeadlessChromiumWithItsChartsAndNoConsoleErrors() throws Exception {
        HeadlessChromium chromium = HeadlessChromium.find().orElse(null);
        assumeTrue(chromium != null, HeadlessChromium.MISSING);

        HeadlessChromium.Page page = chromium.render(out.resolve("run/report.html"), Files.createDirectories(out.resolve("chromium")), 1200, 2400);

        assertThat(page.consoleMessages()).as("console messages").isEmpty();
        assertThat(page.dom()).contains("id=\"latency-cdf\"", "id=\"throughput-over-time\"", "id=\"cost-by-architecture-chart\"",
                "id=\"cost-lines\"", outcome.runId());
        // the charts' colours on screen: curves and scan bars (blue), queue wait and hash bars (orange), end to end and DynamoDB (green)
        assertThat(HeadlessChromium.pixelsNear(page.screenshot(), 0x2563eb)).as("blue pixels").isGreaterThan(2_000);
        assertThat(HeadlessChromium.pixelsNear(page.screenshot(), 0xea580c)).as("orange pixels").isGreaterThan(500);
        assertThat(HeadlessChromium.pixelsNear(page.screenshot(), 0x16a34a)).as("green pixels").isGreaterThan(200);
        Path kept = Path.of("target", "report-it-screenshot.png");
        Files.createDirectories(kept.getParent());
        javax.imageio.ImageIO.write(page.screenshot(), "png", kept.toFile());
    }

    // ---------------------------------------------------------------- recomputation by hand

    /**
     * Σ billed ms × memory MB / 1,024,000 × the architecture's first-tier price, plus $0.20 per million requests. A cold
     * start's INIT is inside billed ms (initBilledMs is its share of them), as Lambda bills it since 1 August 2025.
     */
    @SuppressWarnings("unchecked")
    private BigDecimal lambdaCost(List<Map<String, Object>> invocations) {
        BigDecimal total = BigDecimal.ZERO;
        Map<String, Object> tiers = map(prices, List.of("lambda", "gbSecondTiers"));
        for (Map<String, Object> i : invocations) {
            BigDecimal price = (BigDecimal) ((List<Map<String, Object>>) tiers.get((String) i.get("architecture"))).get(0).get("pricePerGbSecond");
            long ms = (Long) i.get("billedMs");
            assertThat((Long) i.get("initBilledMs")).as("INIT share of %s", i.get("requestId")).isBetween(0L, ms);
            total = total.add(BigDecimal.valueOf(ms).multiply(BigDecimal.valueOf((Long) i.get("memoryMb"))).divide(MB_MS_PER_GB_SECOND).multiply(price));
        }
        return total.add(price("lambda", "perMillionRequests").multiply(BigDecimal.valueOf(invocations.size())).divide(MILLION));
    }

    /** Per shard, in finishing order, the k-th update writes ceil((100 + bytes of the first k task ids) / 1,024) units. */
    private long progressUnits(long shards) {
        Map<Integer, List<Map<String, String>>> byShard = new TreeMap<>();
        for (Map<String, String> r : rows) {
            byShard.computeIfAbsent(ProgressShards.shardOf(r.get("taskId"), (int) shards), s -> new ArrayList<>()).add(r);
        }
        long units = 0;
        for (List<Map<String, String>> shard : byShard.values()) {
            List<Map<String, String>> ordered = new ArrayList<>(shard);
            ordered.sort(Comparator.comparingLong((Map<String, String> r) -> num(r, "finishedAt")).thenComparing(r -> r.get("taskId")));
            long bytes = 100;
            for (Map<String, String> r : ordered) {
                bytes += r.get("taskId").getBytes(StandardCharsets.UTF_8).length;
                units += ceil(bytes, 1024);
            }
        }
        return units;
    }

    private BigDecimal price(String service, String field) {
        return (BigDecimal) map(prices, List.of(service)).get(field);
    }

    private static BigDecimal written(BigDecimal amount) {
        return amount.setScale(12, RoundingMode.HALF_EVEN);
    }

    private static long ceil(long a, long b) {
        return (a + b - 1) / b;
    }

    private static long num(Map<String, String> row, String column) {
        String value = row.get(column);
        return value == null || value.isEmpty() ? 0 : Long.parseLong(value);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> root, List<String> path) {
        Map<String, Object> m = root;
        for (String key : path) m = (Map<String, Object>) m.get(key);
        return m;
    }

    private static InProcessCli.Result cli(String... args) {
        return InProcessCli.run(args);
    }

}
