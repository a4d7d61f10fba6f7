package batchpipe.local.demo;

import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.ReportService;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.common.json.Json;
import batchpipe.common.table.RunProgress;
import batchpipe.common.table.TableKeys;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.RuntimeReportLines;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The main job on the local stack: seed sample logs, invoke the producer as the schedule would, let
 * the event source mappings drive workers until the run completes, wait for the aggregator (triggered
 * by the worker that finished the run), report it again with the runtime's REPORT lines, and write
 * the four report files (report.json, report.md, tasks.csv, report.html).
 */
public final class Demo {
    /**
     * @param objects        sample log objects to scan
     * @param linesPerObject JSON lines per object
     * @param hashBatches    hash tasks
     * @param hashBatchSize  passwords per hash task
     * @param hashCost       bcrypt cost
     * @param runId          the run's id, or null for a new one
     * @param outDir         where the report files go; null for out/&lt;runId&gt;
     * @param writeReports   whether to write report.json, report.md, tasks.csv and report.html
     */
    public record Settings(int objects, int linesPerObject, int hashBatches, int hashBatchSize, int hashCost, long seed,
                           String runId, Path outDir, boolean writeReports, Duration timeout) {
    }

    /** What the demo did, for the summary and for tests. */
    public record Outcome(String runId, Map<String, Object> plan, Map<String, Object> report, Path outDir,
                          double wallSeconds, long compressedBytesSeeded) {
    }

    private final LocalPipeline pipeline;

    public Demo(LocalPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public Outcome run(Settings settings, BiConsumer<Long, Long> progress) throws IOException, InterruptedException {
        long start = System.nanoTime();
        LocalStack stack = pipeline.stack();
        String bucket = stack.ref("DataBucket");
        long seeded = SampleData.seed(stack.s3(), bucket, settings.objects(), settings.linesPerObject(), settings.seed());

        Map<String, Object> spec = new LinkedHashMap<>();
        if (settings.runId() != null) spec.put("runId", settings.runId());
        spec.put("label", "demo");
        if (settings.objects() > 0) {
            spec.put("scan", List.of(Map.of("bucket", bucket, "prefix", SampleData.PREFIX, "suffix", ".zst",
                    "countBy", List.of("level", "status", "service"))));
        }
        if (settings.hashBatches() > 0) {
            spec.put("hash", Map.of("batches", settings.hashBatches(), "batchSize", settings.hashBatchSize(), "cost", settings.hashCost()));
        }
        InvocationResult planned = pipeline.runtime().invoke("ProducerFunction", Json.write(spec).getBytes(StandardCharsets.UTF_8));
        if (planned.failed()) {
            throw new IllegalStateException("the producer failed: " + planned.response());
        }
        Map<String, Object> plan = Json.parseObject(planned.response());
        String runId = (String) plan.get("runId");

        String table = stack.ref("RunsTable");
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        RunProgress status;
        int emptyPolls = 0;
        do {
            status = RunProgress.read(stack.dynamoDb(), table, runId);
            progress.accept(status.finished(), status.planned());
            if (status.complete()) break;
            // Nothing left to deliver yet the run is incomplete: some task reached the dead-letter
            // queue without a final record (every delivery of it died). Say so instead of waiting.
            emptyPolls = queueEmpty(stack, "TasksQueue") ? emptyPolls + 1 : 0;
            if (emptyPolls >= 15) {
                throw new RunStalledException(runId, "run " + runId + " stalled: " + status.finished() + " of " + status.planned()
                        + " tasks have a final record and the tasks queue is empty; the rest are in the dead-letter queue without one");
            }
            Thread.sleep(200);
        } while (System.nanoTime() < deadline);
        if (!status.complete()) {
            throw new IllegalStateException("run " + runId + " did not complete within " + settings.timeout().toSeconds() + " s: "
                    + status.finished() + " of " + status.planned() + " tasks finished");
        }
        awaitReport(stack, table, runId, deadline);
        awaitDrained(stack, "CompletionsQueue", deadline);
        // The aggregator has reported the run without billed durations, which only the runtime knows:
        // report it again, as on demand, with the REPORT lines of every invocation this process made.
        List<ReportLine> reportLines = RuntimeReportLines.of(pipeline.runtime());
        ReportService reports = new ReportService(new RunReader(stack.dynamoDb(), table), stack.dynamoDb(), table,
                PriceTable.defaults(), CostAssumptions.defaults(), metrics -> { }, Clock.systemUTC());
        RunReport report = reports.report(runId, new ReportInputs(reportLines, RuntimeReportLines.source(reportLines.size()),
                CostAssumptions.defaults()));
        Path outDir = settings.outDir() != null ? settings.outDir() : Path.of("out", runId);
        if (settings.writeReports()) {
            ReportFiles.write(outDir, report);
        }
        return new Outcome(runId, plan, report.summary(), outDir, (System.nanoTime() - start) / 1e9, seeded);
    }

    /** A run that cannot complete: thrown with its id so that the books can still be audited. */
    public static final class RunStalledException extends IllegalStateException {
        private final String runId;

        RunStalledException(String runId, String message) {
            super(message);
            this.runId = runId;
        }

        public String runId() {
            return runId;
        }
    }

    private static boolean queueEmpty(LocalStack stack, String queueLogicalId) {
        Map<String, String> attributes = stack.sqs().getQueueAttributes(b -> b.queueUrl(stack.ref(queueLogicalId))
                .attributeNamesWithStrings("ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible")).attributesAsStrings();
        return "0".equals(attributes.get("ApproximateNumberOfMessages")) && "0".equals(attributes.get("ApproximateNumberOfMessagesNotVisible"));
    }

    /** Waits until the mapping has deleted the aggregator's message, so the books are closed when we report. */
    private static void awaitDrained(LocalStack stack, String queueLogicalId, long deadline) throws InterruptedException {
        while (System.nanoTime() < deadline && !queueEmpty(stack, queueLogicalId)) {
            Thread.sleep(50);
        }
    }

    /** The summary the aggregator writes once the completions queue delivers the run. */
    private static void awaitReport(LocalStack stack, String table, String runId, long deadline) throws InterruptedException {
        Map<String, AttributeValue> key = Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)),
                TableKeys.SK, AttributeValue.fromS(TableKeys.SUMMARY_SK));
        while (System.nanoTime() < deadline) {
            Map<String, AttributeValue> item = stack.dynamoDb().getItem(b -> b.tableName(table).key(key).consistentRead(true)).item();
            if (item != null && item.containsKey("report") && "complete".equals(item.get("status").s())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException("run " + runId + " completed but the aggregator wrote no report in time");
    }
}
