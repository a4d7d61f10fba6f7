package batchpipe.aggregator.stats;

import batchpipe.aggregator.TaskRecords;
import batchpipe.common.json.Json;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.table.TableCall;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Four hand-made task records in a run created at t = 1,000 ms and finished at t = 5,000 ms:
 * <pre>
 * task         kind  status  enqueued started finished duration platform       cold  writes (calls, ms total, ms max)
 * scan-a       scan  done    1000     1200    1700     500      arm64/1024MB   yes   1, 4, 4
 * scan-b       scan  done    1000     1500    2500     1000     arm64/1024MB   no    1, 6, 6
 * hash-000001  hash  done    1000     2000    4000     2000     x86_64/2048MB  yes   2, 10, 8
 * hash-000002  hash  failed  1000     3000    5000     2000     x86_64/2048MB  no    1, 2, 2
 * </pre>
 * Queue waits: 200, 500, 1000, 2000. End to end: 700, 1500, 3000, 4000. Window: 4 s.
 */
class RunStatisticsTest {

    private static TaskRecords.Builder task(String taskId, String kind, TaskStatus status, long started, long finished,
                                            String architecture, int memoryMb, boolean cold, long calls, double msTotal, double msMax) {
        return TaskRecords.task(taskId, kind).status(status, null).times(1_000L, started, finished).platform(architecture, memoryMb)
                .cold(cold, null).writes(calls, msTotal, msMax);
    }

    private static TaskRecords.Builder[] builders() {
        return new TaskRecords.Builder[]{
                // scan-a and scan-b ran in one cold invocation (req-1), as its two tasks both say
                task("scan-a", "scan", TaskStatus.DONE, 1_200, 1_700, "arm64", 1024, true, 1, 0.0, 0.0).cold(true, 300L).invocation("req-1", "worker")
                        .scanned(100, 2, 2_000_000, 500_000).countBy("level", Map.of("INFO", 60L, "ERROR", 40L)),
                task("scan-b", "scan", TaskStatus.DONE, 1_500, 2_500, "arm64", 1024, true, 1, 0.0, 0.0).cold(true, 300L).invocation("req-1", "worker")
                        .scanned(50, 0, 1_000_000, 250_000).countBy("level", Map.of("INFO", 30L, "WARN", 20L))
                        .countBy("status", Map.of("200", 50L)),
                task("hash-000001", "hash", TaskStatus.DONE, 2_000, 4_000, "x86_64", 2048, true, 3, 12.0, 8.0).cold(true, 500L).invocation("req-2", "worker")
                        .hashed(10, 4),
                task("hash-000002", "hash", TaskStatus.FAILED, 3_000, 5_000, "x86_64", 2048, false, 2, 2.0, 2.0).invocation("req-3", "worker")
                        .status(TaskStatus.FAILED, "IllegalStateException: throttled")};
    }

    private static List<TaskRecord> tasks() {
        return Arrays.stream(builders()).map(TaskRecords.Builder::build).toList();
    }

    private static RunRecord run(long total) {
        return TaskRecords.run("demo", 1_000, 2, total - 2, null);
    }

    private static RunRecord run(long total, String spec) {
        return TaskRecords.run("demo", 1_000, 2, total - 2, spec);
    }

    private static Percentiles.Summary summary(int count, long p50, long p90, long p95, long p99, long p999, long max, double mean) {
        return new Percentiles.Summary(count, List.of(p50, p90, p95, p99, p999), max, mean);
    }

    private static final Percentiles.Summary NONE = new Percentiles.Summary(0, List.of(), null, null);

    @Test
    void compute_measuresTheWindowFromRunCreationToTheLastFinish() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.runId()).isEqualTo("r1");
        assertThat(report.label()).isEqualTo("demo");
        assertThat(report.status()).isEqualTo("complete");
        assertThat(report.planned()).isEqualTo(new RunFigures.PlannedTasks(2L, 2L, 4));
        assertThat(report.window()).isEqualTo(new RunFigures.Window(1_000, 5_000, 4.0, "last finishedAt - run createdAt"));
    }

    @Test
    void compute_throughputIsTotalsOverTheWindow() {
        RunFigures.Group overall = RunStatistics.compute("r1", run(4), tasks()).overall();

        assertThat(overall.tasks()).isEqualTo(4);
        assertThat(overall.byStatus()).isEqualTo(Map.of("done", 3L, "failed", 1L));
        assertThat(overall.totals()).isEqualTo(new RunFigures.Totals(150, 2, 3_000_000, 750_000, 10));
        // 4 tasks, 150 events, 3 MB and 10 hashes over 4 s
        assertThat(overall.throughput()).isEqualTo(new RunFigures.Throughput(1.0, 37.5, 0.75, 2.5));
    }

    @Test
    void compute_latenciesOfDurationQueueWaitAndEndToEnd() {
        RunFigures.Latency latency = RunStatistics.compute("r1", run(4), tasks()).overall().latency();

        assertThat(latency.taskDurationMs()).isEqualTo(summary(4, 1000, 2000, 2000, 2000, 2000, 2000, 1375.0));
        // startedAt - enqueuedAt: 200, 500, 1000, 2000
        assertThat(latency.queueWaitMs()).isEqualTo(summary(4, 500, 2000, 2000, 2000, 2000, 2000, 925.0));
        // finishedAt - enqueuedAt: 700, 1500, 3000, 4000
        assertThat(latency.endToEndMs()).isEqualTo(summary(4, 1500, 4000, 4000, 4000, 4000, 4000, 2300.0));
    }

    @Test
    void compute_coldStartsAndDynamoDbWrites() {
        RunFigures.Group overall = RunStatistics.compute("r1", run(4), tasks()).overall();

        // 3 invocations, 2 of them cold (req-1 ran 2 tasks, req-2 one): each init counts once, not once per task
        assertThat(overall.coldStarts().invocations()).isEqualTo(3);
        assertThat(overall.coldStarts().coldInvocations()).isEqualTo(2);
        assertThat(overall.coldStarts().tasks()).isEqualTo(3);
        assertThat(overall.coldStarts().share()).isEqualTo(0.667);
        assertThat(overall.coldStarts().initMs()).isEqualTo(summary(2, 300, 500, 500, 500, 500, 500, 400.0));
        // as the worker records them, each count includes the record's own untimed put: 1 + 1 + 3 + 2 = 7 calls,
        // of which 0 + 0 + 2 + 1 = 3 were timed, taking 14 ms in all (mean 4.667, not 14 / 7 = 2); the slowest took 8 ms
        assertThat(overall.dynamoDb()).isEqualTo(new RunFigures.DynamoDbWrites(7, 1.75, 4.667, 8.0));
    }

    @Test
    void compute_groupsByKindOverTheWholeRunWindow() {
        Map<String, RunFigures.Group> byKind = RunStatistics.compute("r1", run(4), tasks()).byKind();

        assertThat(byKind).containsOnlyKeys("hash", "scan");
        RunFigures.Group scan = byKind.get("scan");
        assertThat(scan.tasks()).isEqualTo(2);
        assertThat(scan.byStatus()).isEqualTo(Map.of("done", 2L));
        assertThat(scan.throughput()).isEqualTo(new RunFigures.Throughput(0.5, 37.5, 0.75, 0.0));
        assertThat(scan.latency().taskDurationMs().p50()).isEqualTo(500L);
        assertThat(scan.latency().taskDurationMs().at("p90")).isEqualTo(1000L);
        assertThat(scan.latency().taskDurationMs().mean()).isEqualTo(750.0);
        assertThat(scan.latency().queueWaitMs().p50()).isEqualTo(200L);
        assertThat(scan.latency().queueWaitMs().max()).isEqualTo(500L);
        RunFigures.Group hash = byKind.get("hash");
        assertThat(hash.tasks()).isEqualTo(2);
        assertThat(hash.byStatus()).isEqualTo(Map.of("done", 1L, "failed", 1L));
        assertThat(hash.throughput().tasksPerSecond()).isEqualTo(0.5);
        assertThat(hash.throughput().hashesPerSecond()).isEqualTo(2.5);
        assertThat(hash.latency().queueWaitMs().p50()).isEqualTo(1000L);
        assertThat(hash.latency().queueWaitMs().at("p90")).isEqualTo(2000L);
        assertThat(hash.latency().queueWaitMs().mean()).isEqualTo(1500.0);
        assertThat(hash.latency().endToEndMs().p50()).isEqualTo(3000L);
        assertThat(hash.latency().endToEndMs().max()).isEqualTo(4000L);
    }

    @Test
    void compute_groupsByArchitectureAndMemory() {
        Map<String, RunFigures.Group> byPlatform = RunStatistics.compute("r1", run(4), tasks()).byPlatform();

        assertThat(byPlatform.keySet()).containsExactly("arm64/1024MB", "x86_64/2048MB");
        RunFigures.Group arm = byPlatform.get("arm64/1024MB");
        assertThat(arm.tasks()).isEqualTo(2);
        assertThat(arm.totals().events()).isEqualTo(150);
        assertThat(arm.totals().hashes()).isZero();
        // both arm64 tasks ran in one cold invocation: 1 of 1 invocations, not 2 cold starts
        assertThat(arm.coldStarts().coldInvocations()).isEqualTo(1);
        assertThat(arm.coldStarts().invocations()).isEqualTo(1);
        assertThat(arm.coldStarts().tasks()).isEqualTo(2);
        assertThat(arm.coldStarts().share()).isEqualTo(1.0);
        RunFigures.Group x86 = byPlatform.get("x86_64/2048MB");
        assertThat(x86.totals().hashes()).isEqualTo(10);
        assertThat(x86.totals().events()).isZero();
        assertThat(x86.dynamoDb().writeCalls()).isEqualTo(5);
        assertThat(x86.dynamoDb().meanWriteMs()).isEqualTo(4.667);
        assertThat(x86.dynamoDb().slowestWriteMs()).isEqualTo(8.0);
    }

    @Test
    void compute_groupsTasksWithoutPlatformFactsAsUnknown() {
        TaskRecord bare = TaskRecords.task("t", "scan").status(TaskStatus.REJECTED, null).times(null, 10, 20).build();

        RunFigures report = RunStatistics.compute("r1", null, List.of(bare));

        assertThat(report.byPlatform().keySet()).containsExactly("unknown/?MB");
        // no enqueuedAt: no queue wait and no end-to-end time
        assertThat(report.overall().latency().queueWaitMs()).isEqualTo(NONE);
        assertThat(report.overall().latency().endToEndMs()).isEqualTo(NONE);
    }

    @Test
    void compute_mergesCountByOfAllTasks() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.countBy()).isEqualTo(Map.of(
                "level", Map.of("ERROR", 40L, "INFO", 90L, "WARN", 20L),
                "status", Map.of("200", 50L)));
    }

    @Test
    void compute_addsNoCountByAccuracyWhenEveryTaskCountedExactly() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.countByAccuracy()).isEmpty();
        assertThat(Json.write(report.toJson())).doesNotContain("countByAccuracy");
    }

    @Test
    void compute_saysWhichCountByPathsAreApproximateAndAddsTheTasksOverCounts() {
        TaskRecords.Builder[] builders = builders();
        builders[0].countByAccuracy("level", new CountAccuracy(false, 12, false));
        builders[1].countByAccuracy("level", new CountAccuracy(false, 30, false)).countByAccuracy("status", CountAccuracy.EXACT);
        List<TaskRecord> tasks = Arrays.stream(builders).map(TaskRecords.Builder::build).toList();

        RunFigures report = RunStatistics.compute("r1", run(4), tasks);

        // the merged counts add the tasks' counts, so their errors add
        assertThat(report.countByAccuracy()).isEqualTo(Map.of(
                "level", new RunFigures.PathAccuracy(true, 42, true),
                "status", new RunFigures.PathAccuracy(false, 0, false)));
        assertThat(Json.write(report.toJson())).contains("\"countByAccuracy\":{\"level\":{\"counts\":\"approximate\",\"maxOverCount\":42,"
                + "\"distinct\":\"estimated\"},\"status\":{\"counts\":\"exact\",\"distinct\":\"exact\"}},\"problems\"");
    }

    @Test
    void compute_listsTasksThatDidNotFinishAsDone() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.problems()).containsExactly(
                new RunFigures.Problem("hash-000002", "failed", "IllegalStateException: throttled"));
    }

    @Test
    void compute_isIncompleteWhileTasksAreMissing() {
        assertThat(RunStatistics.compute("r1", run(5), tasks()).status()).isEqualTo("incomplete");
    }

    @Test
    void compute_withoutRunRecordUsesTheFirstStartAndCountsWhatIsThere() {
        RunFigures report = RunStatistics.compute("r1", null, tasks());

        assertThat(report.status()).isEqualTo("complete");
        assertThat(report.planned()).isEqualTo(new RunFigures.PlannedTasks(null, null, 4));
        assertThat(report.label()).isNull();
        assertThat(Json.write(report.toJson())).doesNotContain("\"label\"").contains("\"planned\":{\"total\":4}");
        // 5,000 - 1,200 = 3.8 s; 4 tasks / 3.8 s = 1.0526...
        assertThat(report.window()).isEqualTo(new RunFigures.Window(1_200, 5_000, 3.8, "last finishedAt - first startedAt"));
        assertThat(report.overall().throughput().tasksPerSecond()).isEqualTo(1.053);
    }

    @Test
    void compute_drawsTheTimelineOverTheRunWindow() {
        RunFigures.TimelineFigures timeline = RunStatistics.compute("r1", run(4), tasks()).timeline();

        // window 1,000 .. 5,000 ms: four 1 s buckets; finishes at offsets 700, 1,500, 3,000 and 4,000 (the end: last bucket)
        assertThat(timeline.start()).isEqualTo(1_000L);
        assertThat(timeline.bucketSeconds()).isEqualTo(1L);
        assertThat(timeline.buckets()).extracting(RunFigures.Bucket::tasks).containsExactly(1L, 1L, 0L, 2L);
    }

    @Test
    void compute_givesTheDistributionOfEachLatency() {
        RunFigures.LatencyDistribution distribution = RunStatistics.compute("r1", run(4), tasks()).distribution();

        // durations 500, 1000, 2000, 2000: p1..p25 -> rank 1, p26..p50 -> rank 2, above -> 2000
        List<Long> durations = distribution.taskDurationMs();
        assertThat(durations).hasSize(101);
        assertThat(durations.get(24)).isEqualTo(500L);
        assertThat(durations.get(25)).isEqualTo(1_000L);
        assertThat(durations.get(50)).isEqualTo(2_000L);
        assertThat(distribution.queueWaitMs()).startsWith(200L).endsWith(2_000L);
        assertThat(distribution.endToEndMs()).startsWith(700L).endsWith(4_000L);
    }

    @Test
    void compute_listsTheThreadsAndVcpuSharesWorkersRanWith() {
        TaskRecords.Builder[] builders = builders();
        builders[0].workers(2, 1.0);
        builders[1].workers(1, 0.5);
        builders[2].workers(2, 1.0);
        List<TaskRecord> tasks = Arrays.stream(builders).map(TaskRecords.Builder::build).toList();

        RunFigures.Workers workers = RunStatistics.compute("r1", run(4), tasks).overall().workers();

        assertThat(workers).isEqualTo(new RunFigures.Workers(List.of(1L, 2L), List.of(0.5, 1.0)));
    }

    @Test
    void compute_leavesKindsWithoutTasksOutAndGivesEmptyLatenciesOnlyACount() {
        List<TaskRecord> scansOnly = tasks().subList(0, 2);

        RunFigures report = RunStatistics.compute("r1", run(2), scansOnly);

        assertThat(report.byKind()).containsOnlyKeys("scan");
        assertThat(report.overall().coldStarts().initMs().count()).isEqualTo(1);
        RunFigures warm = RunStatistics.compute("r1", run(1), List.of(tasks().get(3)));
        assertThat(warm.overall().coldStarts().initMs()).isEqualTo(NONE);
        assertThat(Json.write(NONE)).isEqualTo("{\"count\":0}");
    }

    @Test
    void compute_ofARunWithoutTasks() {
        RunFigures report = RunStatistics.compute("r1", run(0), List.of());

        assertThat(report.status()).isEqualTo("complete");
        assertThat(report.window().seconds()).isEqualTo(0.0);
        assertThat(report.overall().tasks()).isZero();
        assertThat(report.overall().throughput().tasksPerSecond()).isEqualTo(0.0);
        assertThat(report.overall().coldStarts().share()).isEqualTo(0.0);
        assertThat(report.byKind()).isEmpty();
        assertThat(report.countBy()).isEmpty();
    }

    @Test
    void compute_withAToleranceSaysWhetherTheFailuresStayedWithinIt() {
        // One of four planned tasks failed: 25 %.
        RunFigures.FailureTolerance within = RunStatistics.compute("r1",
                run(4, "{\"toleratedFailurePercent\":25,\"hash\":{\"batches\":2,\"batchSize\":1,\"cost\":4}}"), tasks()).failureTolerance();
        assertThat(within.failedTasks()).isEqualTo(1);
        assertThat(within.plannedTasks()).isEqualTo(4);
        assertThat(within.failedPercent()).isEqualTo(25.0);
        assertThat(within.toleratedPercent()).isEqualTo(25);
        assertThat(within.withinTolerance()).isTrue();

        RunFigures.FailureTolerance exceeded = RunStatistics.compute("r1",
                run(4, "{\"toleratedFailurePercent\":24,\"hash\":{\"batches\":2,\"batchSize\":1,\"cost\":4}}"), tasks()).failureTolerance();
        assertThat(exceeded.withinTolerance()).isFalse();
    }

    @Test
    void compute_withoutAToleranceJudgesNothing() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.failureTolerance()).isNull();
        assertThat(Json.write(report.toJson())).doesNotContain("failureTolerance");
    }

    @Test
    void compute_measuresQueueWaitFromWhenSqsAcceptedTheMessageAndPlanningAsItsOwnPhase() {
        // planned at 1,000 (createdAt and enqueuedAt), last task sent at 13,500: a 12.5 s planning phase;
        // sent at 13,000 and started at 13,400: a 400 ms queue wait, not 12.4 s
        RunRecord run = new RunRecord("r1", "demo", null, new batchpipe.common.run.Planned(1, 0, 1), 0, 1_000L, "running", 1,
                1L, null, List.of(), null, null, 13_500L);
        TaskRecord sent = TaskRecord.builder().runId("r1").taskId("scan-a").kind("scan").status(TaskStatus.DONE).enqueuedAt(1_000L)
                .startedAt(13_400L).finishedAt(13_900L).attempt(1).sentAt(13_000L).build();

        RunFigures report = RunStatistics.compute("r1", run, List.of(sent));

        assertThat(report.overall().latency().queueWaitMs().p50()).isEqualTo(400L);
        assertThat(report.overall().latency().endToEndMs().p50()).isEqualTo(900L);
        assertThat(report.window().planning()).isEqualTo(new RunFigures.Phase(1_000L, 13_500L, 12.5,
                "run createdAt (before listing) - run sendFinishedAt (the last task sent)"));
        assertThat(report.latencyDefinitions().queueWaitMs()).isEqualTo("startedAt - the SQS SentTimestamp of the task's message (when SQS accepted it)");
    }

    @Test
    void compute_saysWhenOlderRecordsMeasureQueueWaitFromThePlanningTime() {
        RunFigures report = RunStatistics.compute("r1", run(4), tasks());

        // these records have no SentTimestamp: the wait starts at enqueuedAt (1,000), and the report says so
        assertThat(report.overall().latency().queueWaitMs().count()).isEqualTo(4);
        assertThat(report.latencyDefinitions().queueWaitMs()).startsWith("startedAt - enqueuedAt (these records predate SentTimestamp");
        assertThat(report.window().planning()).isNull();
    }

    @Test
    void compute_givesEachKindOfDynamoDbCallItsOwnLatencyFromTheInvocationRecords() {
        // two invocations: record puts of 10, 30 and 20 ms; progress updates of 5 and 7 ms; one read of 2.5 ms
        WorkerInvocation worker = new WorkerInvocation("req-1", "worker", null, 1769, "x86_64", 2, 1.0, false, null);
        InvocationRecord first = new InvocationRecord("r1", worker, 0, 100, 2, Map.of(
                TableCall.TASK_RECORD_PUT, List.of(10.0, 30.0), TableCall.PROGRESS_UPDATE, List.of(5.0, 7.0)));
        InvocationRecord second = new InvocationRecord("r1", worker, 0, 100, 1, Map.of(
                TableCall.TASK_RECORD_PUT, List.of(20.0), TableCall.TASK_RECORD_READ, List.of(2.5)));

        RunFigures.DynamoDbCalls calls = RunStatistics.compute("r1", run(4), tasks(), List.of(first, second)).dynamoDbCalls();

        assertThat(calls.invocations()).isEqualTo(2);
        // the task records name 3 invocations (req-1, req-2, req-3): the report says one record is missing
        assertThat(calls.invocationsWithTasks()).isEqualTo(3);
        assertThat(calls.definition()).contains("from the run's 2 worker invocation records (of 3 invocations its task records name");
        // nearest rank over {10, 20, 30}: p50 is the 2nd value, p99 the 3rd
        assertThat(calls.byCall()).containsExactly(
                Map.entry("taskRecordRead", new RunFigures.CallLatency(1, 2.5, 2.5, 2.5)),
                Map.entry("taskRecordPut", new RunFigures.CallLatency(3, 20.0, 30.0, 30.0)),
                Map.entry("progressUpdate", new RunFigures.CallLatency(2, 5.0, 7.0, 7.0)));
        assertThat(RunStatistics.compute("r1", run(4), tasks()).dynamoDbCalls()).isNull();
    }
}
