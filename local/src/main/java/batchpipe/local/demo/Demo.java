package batchpipe.local.demo;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.ReportLineSource;
import batchpipe.aggregator.ReportService;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.aggregator.delivery.JsonLinesRunEvents;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.common.run.PlanResult;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.text.ControlCharacters;
import batchpipe.local.report.ReportFiles;
import batchpipe.local.report.RunSummaryItem;
import batchpipe.local.report.RuntimeReportLines;
import batchpipe.local.run.RunWatcher;
import batchpipe.local.runtime.InvocationResult;
import batchpipe.local.runtime.LocalPipeline;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;

/**
 * The main job on the local stack: seed sample logs, invoke the producer as the schedule would, let
 * the event source mappings drive workers until the run completes, wait for the aggregator (triggered
 * by the worker that finished the run), report it again with the runtime's REPORT lines, and write
 * the report files (report.json, report.md, tasks.csv, countby.csv, report.html) into the local bucket, where
 * the aggregator put them, and into out/&lt;runId&gt;/.
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
     * @param writeReports   whether to write report.json, report.md, tasks.csv, countby.csv and report.html
     */
    public record Settings(int objects, int linesPerObject, int hashBatches, int hashBatchSize, int hashCost, long seed,
                           String runId, Path outDir, boolean writeReports, Duration timeout) {
        /**
         * Settings by name, starting from {@code ./batchpipe demo}'s without options: 24 objects of 20,000 lines,
         * 8 hash batches of 25 passwords at cost 10, seed 42, a new run id, the report files written into
         * out/&lt;runId&gt;, at most 10 minutes. Ten positional values, six of them ints, were too easy to swap.
         */
        public static Builder builder() {
            return new Builder();
        }

        public static final class Builder {
            private int objects = 24, linesPerObject = 20_000, hashBatches = 8, hashBatchSize = 25, hashCost = 10;
            private long seed = 42;
            private String runId;
            private Path outDir;
            private boolean writeReports = true;
            private Duration timeout = Duration.ofMinutes(10);

            private Builder() {
            }

            public Builder objects(int objects) {
                this.objects = objects;
                return this;
            }

            public Builder linesPerObject(int linesPerObject) {
                this.linesPerObject = linesPerObject;
                return this;
            }

            public Builder hashBatches(int hashBatches) {
                this.hashBatches = hashBatches;
                return this;
            }

            public Builder hashBatchSize(int hashBatchSize) {
                this.hashBatchSize = hashBatchSize;
                return this;
            }

            public Builder hashCost(int hashCost) {
                this.hashCost = hashCost;
                return this;
            }

            public Builder seed(long seed) {
                this.seed = seed;
                return this;
            }

            /** The run's id; a new one when not set. */
            public Builder runId(String runId) {
                this.runId = runId;
                return this;
            }

            /** Where the report files go; out/&lt;runId&gt; when not set. */
            public Builder outDir(Path outDir) {
                this.outDir = outDir;
                return this;
            }

            public Builder writeReports(boolean writeReports) {
                this.writeReports = writeReports;
                return this;
            }

            public Builder timeout(Duration timeout) {
                this.timeout = timeout;
                return this;
            }

            public Settings build() {
                return new Settings(objects, linesPerObject, hashBatches, hashBatchSize, hashCost, seed, runId, outDir, writeReports, timeout);
            }
        }
    }

    /**
     * What the demo did, for the summary and for tests.
     *
     * @param plan            the producer's response
     * @param report          the report's summary, typed
     * @param reportLocation  where the report files are in the local bucket
     * @param completionEvent where the aggregator put the Run Completed event (the local stack's JSON-lines file)
     */
    public record Outcome(String runId, PlanResult plan, Report report, Path outDir,
                          double wallSeconds, long compressedBytesSeeded, Phases phases, ReportLocation reportLocation,
                          String completionEvent) {
    }

    /**
     * Where the demo's time went, in seconds: waiting for the sample objects and uploading them, the
     * producer's planning and enqueueing, the run until its last task finished, the aggregator's
     * report, and the final report with the REPORT lines (and its files).
     */
    public record Phases(double seeding, double planning, double running, double aggregating, double reporting) {
    }

    private final LocalPipeline pipeline;

    public Demo(LocalPipeline pipeline) {
        this.pipeline = pipeline;
    }

    public Outcome run(Settings settings, BiConsumer<Long, Long> progress) throws IOException, InterruptedException {
        try (SampleData samples = SampleData.generate(settings.objects(), settings.linesPerObject(), settings.seed())) {
            return run(settings, samples, progress);
        }
    }

    /**
     * Runs with sample objects whose generation the caller started earlier (so that it overlaps the
     * emulators' start); they must be the settings' objects, lines and seed.
     */
    public Outcome run(Settings settings, SampleData samples, BiConsumer<Long, Long> progress) throws IOException, InterruptedException {
        if (samples.objectCount() != settings.objects()) {
            throw new IllegalArgumentException("sample data has " + samples.objectCount() + " objects, the settings ask for " + settings.objects());
        }
        long start = System.nanoTime();
        LocalStack stack = pipeline.stack();
        String bucket = stack.ref("DataBucket");
        long seeded = samples.upload(stack.s3(), bucket);
        long seededAt = System.nanoTime();

        RunSpec spec = new RunSpec(settings.runId(), "demo",
                settings.objects() > 0 ? List.of(new RunSpec.ScanSource(bucket, SampleData.PREFIX, ".zst", null,
                        List.of("level", "status", "service"), null)) : List.of(),
                settings.hashBatches() > 0 ? new RunSpec.HashSpec(settings.hashBatches(), settings.hashBatchSize(), settings.hashCost(),
                        RunSpec.HashSpec.DEFAULT_PREFIX) : null);
        InvocationResult planned = pipeline.runtime().invoke("ProducerFunction", spec.toJson().getBytes(StandardCharsets.UTF_8));
        if (planned.failed()) {
            throw new IllegalStateException("the producer failed: " + planned.response());
        }
        PlanResult plan = PlanResult.fromJson(planned.response());
        String runId = plan.runId();
        if (!TaskIds.isValidRunId(runId)) {
            // It names the folder out/<runId>; the producer's own check makes this a bug, not a user's mistake.
            throw new IllegalStateException("the producer answered with run id '" + ControlCharacters.escape(String.valueOf(runId))
                    + "', which is not " + TaskIds.RUN_ID_RULE);
        }
        long plannedAt = System.nanoTime();

        String table = stack.ref("RunsTable");
        long deadline = System.nanoTime() + settings.timeout().toNanos();
        String tasksQueue = stack.ref("TasksQueue");
        String deadLetters = stack.ref("TasksDeadLetterQueue");
        // Stalled only when nothing is left to deliver, the dead-letter recorder's queue included.
        RunWatcher watcher = new RunWatcher(stack.dynamoDb(), stack.s3(), table,
                () -> RunWatcher.queueEmpty(stack.sqs(), tasksQueue) && RunWatcher.queueEmpty(stack.sqs(), deadLetters));
        watcher.awaitCompletion(runId, settings.timeout(), progress);
        long completedAt = System.nanoTime();
        RunSummaryItem aggregated = watcher.awaitSummary(runId, remaining(deadline));
        // The mapping deletes the aggregator's message after the report is written: wait, so the books are closed.
        String completions = stack.ref("CompletionsQueue");
        while (System.nanoTime() < deadline && !RunWatcher.queueEmpty(stack.sqs(), completions)) {
            Thread.sleep(50);
        }
        long aggregatedAt = System.nanoTime();
        // The aggregator has reported the run without billed durations, which only the runtime knows:
        // report it again, as on demand, with the REPORT lines of every invocation this process made.
        List<ReportLine> reportLines = RuntimeReportLines.of(pipeline.runtime());
        // Into the bucket and prefix the aggregator writes to, replacing its files; the run was announced already.
        Map<String, String> aggregator = stack.function("AggregatorFunction").environment();
        ReportService reports = new ReportService(new RunReader(stack.dynamoDb(), table), stack.dynamoDb(), table,
                PriceTable.defaults(), CostAssumptions.defaults(), metrics -> { }, Clock.systemUTC(), ReportLineSource.NONE,
                new ReportStore(stack.s3(), aggregator.get("REPORT_BUCKET"), aggregator.get("REPORT_PREFIX")),
                new JsonLinesRunEvents(stack.runEventsFile(), Clock.systemUTC()));
        RunReport report = reports.reportAgain(runId, new ReportInputs(reportLines, RuntimeReportLines.source(reportLines.size()),
                CostAssumptions.defaults()));
        Path outDir = settings.outDir() != null ? settings.outDir() : Path.of("out", runId);
        try (report) { // its tasks.csv spill is deleted once the files are written
            if (settings.writeReports()) ReportFiles.write(outDir, report);
        }
        long end = System.nanoTime();
        Phases phases = new Phases(seconds(start, seededAt), seconds(seededAt, plannedAt), seconds(plannedAt, completedAt),
                seconds(completedAt, aggregatedAt), seconds(aggregatedAt, end));
        return new Outcome(runId, plan, report.summary(), outDir, seconds(start, end), seeded, phases, aggregated.report(),
                aggregated.completionEvent());
    }

    private static double seconds(long fromNanos, long toNanos) {
        return (toNanos - fromNanos) / 1e9;
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1_000_000_000L, deadlineNanos - System.nanoTime()));
    }
}
