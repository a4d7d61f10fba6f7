package batchpipe.aggregator.stats;

import org.junit.jupiter.api.Test;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.entry;

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

    private static Map<String, Object> task(String taskId, String kind, String status, long started, long finished,
                                            String architecture, long memoryMb, boolean cold, long calls, double msTotal, double msMax) {
        Map<String, Object> t = new HashMap<>();
        t.put("taskId", taskId);
        t.put("kind", kind);
        t.put("status", status);
        t.put("enqueuedAt", 1_000L);
        t.put("startedAt", started);
        t.put("finishedAt", finished);
        t.put("durationMs", finished - started);
        t.put("architecture", architecture);
        t.put("memoryMb", memoryMb);
        t.put("coldStart", cold);
        t.put("ddbWriteCalls", calls);
        t.put("ddbWriteMsTotal", msTotal);
        t.put("ddbWriteMsMax", msMax);
        return t;
    }

    private static List<Map<String, Object>> tasks() {
        return new java.util.ArrayList<>(fourTasks());
    }

    private static List<Map<String, Object>> fourTasks() {
        Map<String, Object> scanA = task("scan-a", "scan", "done", 1_200, 1_700, "arm64", 1024, true, 1, 4.0, 4.0);
        scanA.put("initMs", 300L);
        scanA.put("events", 100L);
        scanA.put("malformed", 2L);
        scanA.put("bytes", 2_000_000L);
        scanA.put("compressedBytes", 500_000L);
        scanA.put("countBy", Map.of("level", Map.of("INFO", 60L, "ERROR", 40L)));
        Map<String, Object> scanB = task("scan-b", "scan", "done", 1_500, 2_500, "arm64", 1024, false, 1, 6.0, 6.0);
        scanB.put("events", 50L);
        scanB.put("bytes", 1_000_000L);
        scanB.put("compressedBytes", 250_000L);
        scanB.put("countBy", Map.of("level", Map.of("INFO", 30L, "WARN", 20L), "status", Map.of("200", 50L)));
        Map<String, Object> hash1 = task("hash-000001", "hash", "done", 2_000, 4_000, "x86_64", 2048, true, 2, 10.0, 8.0);
        hash1.put("initMs", 500L);
        hash1.put("hashes", 10L);
        Map<String, Object> hash2 = task("hash-000002", "hash", "failed", 3_000, 5_000, "x86_64", 2048, false, 1, 2.0, 2.0);
        hash2.put("reason", "IllegalStateException: throttled");
        return List.of(scanA, scanB, hash1, hash2);
    }

    private static Map<String, Object> run(long total) {
        return Map.of("label", "demo", "createdAt", 1_000L, "planned", Map.of("scan", 2L, "hash", 2L, "total", total));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Map<String, Object> parent, String... path) {
        Map<String, Object> m = parent;
        for (String key : path) m = (Map<String, Object>) m.get(key);
        return m;
    }

    @Test
    void compute_measuresTheWindowFromRunCreationToTheLastFinish() {
        Map<String, Object> report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report).containsEntry("runId", "r1").containsEntry("label", "demo").containsEntry("status", "complete")
                .containsEntry("planned", Map.of("scan", 2L, "hash", 2L, "total", 4L));
        assertThat(map(report, "window")).containsExactly(
                entry("start", 1_000L), entry("end", 5_000L), entry("seconds", 4.0),
                entry("definition", "last finishedAt - run createdAt"));
    }

    @Test
    void compute_throughputIsTotalsOverTheWindow() {
        Map<String, Object> overall = map(RunStatistics.compute("r1", run(4), tasks()), "overall");

        assertThat(overall).containsEntry("tasks", 4).containsEntry("byStatus", Map.of("done", 3L, "failed", 1L));
        assertThat(map(overall, "totals")).containsExactly(entry("events", 150L), entry("malformed", 2L),
                entry("bytes", 3_000_000L), entry("compressedBytes", 750_000L), entry("hashes", 10L));
        // 4 tasks, 150 events, 3 MB and 10 hashes over 4 s
        assertThat(map(overall, "throughput")).containsExactly(entry("tasksPerSecond", 1.0), entry("eventsPerSecond", 37.5),
                entry("uncompressedMBPerSecond", 0.75), entry("hashesPerSecond", 2.5));
    }

    @Test
    void compute_latenciesOfDurationQueueWaitAndEndToEnd() {
        Map<String, Object> latency = map(RunStatistics.compute("r1", run(4), tasks()), "overall", "latency");

        assertThat(map(latency, "taskDurationMs")).containsExactly(entry("count", 4), entry("p50", 1000L), entry("p90", 2000L),
                entry("p95", 2000L), entry("p99", 2000L), entry("p99.9", 2000L), entry("max", 2000L), entry("mean", 1375.0));
        // startedAt - enqueuedAt: 200, 500, 1000, 2000
        assertThat(map(latency, "queueWaitMs")).containsExactly(entry("count", 4), entry("p50", 500L), entry("p90", 2000L),
                entry("p95", 2000L), entry("p99", 2000L), entry("p99.9", 2000L), entry("max", 2000L), entry("mean", 925.0));
        // finishedAt - enqueuedAt: 700, 1500, 3000, 4000
        assertThat(map(latency, "endToEndMs")).containsExactly(entry("count", 4), entry("p50", 1500L), entry("p90", 4000L),
                entry("p95", 4000L), entry("p99", 4000L), entry("p99.9", 4000L), entry("max", 4000L), entry("mean", 2300.0));
    }

    @Test
    void compute_coldStartsAndDynamoDbWrites() {
        Map<String, Object> overall = map(RunStatistics.compute("r1", run(4), tasks()), "overall");

        assertThat(map(overall, "coldStarts")).containsEntry("tasks", 2L).containsEntry("share", 0.5);
        assertThat(map(overall, "coldStarts", "initMs")).containsEntry("count", 2).containsEntry("p50", 300L)
                .containsEntry("max", 500L).containsEntry("mean", 400.0);
        // 5 calls taking 22 ms in all; the slowest took 8 ms
        assertThat(map(overall, "dynamoDb")).containsExactly(entry("writeCalls", 5L), entry("writeCallsPerTask", 1.25),
                entry("meanWriteMs", 4.4), entry("slowestWriteMs", 8.0));
    }

    @Test
    void compute_groupsByKindOverTheWholeRunWindow() {
        Map<String, Object> byKind = map(RunStatistics.compute("r1", run(4), tasks()), "byKind");

        assertThat(byKind).containsOnlyKeys("hash", "scan");
        Map<String, Object> scan = map(byKind, "scan");
        assertThat(scan).containsEntry("tasks", 2).containsEntry("byStatus", Map.of("done", 2L));
        assertThat(map(scan, "throughput")).containsExactly(entry("tasksPerSecond", 0.5), entry("eventsPerSecond", 37.5),
                entry("uncompressedMBPerSecond", 0.75), entry("hashesPerSecond", 0.0));
        assertThat(map(scan, "latency", "taskDurationMs")).containsEntry("p50", 500L).containsEntry("p90", 1000L)
                .containsEntry("mean", 750.0);
        assertThat(map(scan, "latency", "queueWaitMs")).containsEntry("p50", 200L).containsEntry("max", 500L);
        Map<String, Object> hash = map(byKind, "hash");
        assertThat(hash).containsEntry("tasks", 2).containsEntry("byStatus", Map.of("done", 1L, "failed", 1L));
        assertThat(map(hash, "throughput")).containsEntry("tasksPerSecond", 0.5).containsEntry("hashesPerSecond", 2.5);
        assertThat(map(hash, "latency", "queueWaitMs")).containsEntry("p50", 1000L).containsEntry("p90", 2000L)
                .containsEntry("mean", 1500.0);
        assertThat(map(hash, "latency", "endToEndMs")).containsEntry("p50", 3000L).containsEntry("max", 4000L);
    }

    @Test
    void compute_groupsByArchitectureAndMemory() {
        Map<String, Object> byPlatform = map(RunStatistics.compute("r1", run(4), tasks()), "byPlatform");

        assertThat(byPlatform.keySet()).containsExactly("arm64/1024MB", "x86_64/2048MB");
        assertThat(map(byPlatform, "arm64/1024MB")).containsEntry("tasks", 2);
        assertThat(map(byPlatform, "arm64/1024MB", "totals")).containsEntry("events", 150L).containsEntry("hashes", 0L);
        assertThat(map(byPlatform, "arm64/1024MB", "coldStarts")).containsEntry("tasks", 1L).containsEntry("share", 0.5);
        assertThat(map(byPlatform, "x86_64/2048MB", "totals")).containsEntry("hashes", 10L).containsEntry("events", 0L);
        assertThat(map(byPlatform, "x86_64/2048MB", "dynamoDb")).containsEntry("writeCalls", 3L)
                .containsEntry("meanWriteMs", 4.0).containsEntry("slowestWriteMs", 8.0);
    }

    @Test
    void compute_groupsTasksWithoutPlatformFactsAsUnknown() {
        Map<String, Object> bare = new HashMap<>(Map.of("taskId", "t", "kind", "scan", "status", "rejected",
                "startedAt", 10L, "finishedAt", 20L, "durationMs", 10L));

        Map<String, Object> report = RunStatistics.compute("r1", null, List.of(bare));

        assertThat(map(report, "byPlatform").keySet()).containsExactly("unknown/?MB");
        // no enqueuedAt: no queue wait and no end-to-end time
        assertThat(map(report, "overall", "latency", "queueWaitMs")).containsExactly(entry("count", 0));
        assertThat(map(report, "overall", "latency", "endToEndMs")).containsExactly(entry("count", 0));
    }

    @Test
    void compute_mergesCountByOfAllTasks() {
        Map<String, Object> report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.get("countBy")).isEqualTo(Map.of(
                "level", Map.of("ERROR", 40L, "INFO", 90L, "WARN", 20L),
                "status", Map.of("200", 50L)));
    }

    @Test
    void compute_addsNoCountByAccuracyWhenEveryTaskCountedExactly() {
        assertThat(RunStatistics.compute("r1", run(4), tasks())).doesNotContainKey("countByAccuracy");
    }

    @Test
    void compute_saysWhichCountByPathsAreApproximateAndAddsTheTasksOverCounts() {
        List<Map<String, Object>> tasks = tasks();
        tasks.get(0).put("countByAccuracy", Map.of(
                "level", Map.of("counts", "approximate", "maxOverCount", 12L, "distinct", "estimated")));
        tasks.get(1).put("countByAccuracy", Map.of(
                "level", Map.of("counts", "approximate", "maxOverCount", 30L, "distinct", "estimated"),
                "status", Map.of("counts", "exact", "distinct", "exact")));

        Map<String, Object> report = RunStatistics.compute("r1", run(4), tasks);

        // the merged counts add the tasks' counts, so their errors add
        assertThat(report.get("countByAccuracy")).isEqualTo(Map.of(
                "level", Map.of("counts", "approximate", "maxOverCount", 42L, "distinct", "estimated"),
                "status", Map.of("counts", "exact", "distinct", "exact")));
        assertThat(new java.util.ArrayList<>(report.keySet())).containsSubsequence("countBy", "countByAccuracy", "problems");
    }

    @Test
    void compute_listsTasksThatDidNotFinishAsDone() {
        Map<String, Object> report = RunStatistics.compute("r1", run(4), tasks());

        assertThat(report.get("problems")).isEqualTo(List.of(
                Map.of("taskId", "hash-000002", "status", "failed", "reason", "IllegalStateException: throttled")));
    }

    @Test
    void compute_isIncompleteWhileTasksAreMissing() {
        Map<String, Object> report = RunStatistics.compute("r1", run(5), tasks());

        assertThat(report).containsEntry("status", "incomplete");
    }

    @Test
    void compute_withoutRunRecordUsesTheFirstStartAndCountsWhatIsThere() {
        Map<String, Object> report = RunStatistics.compute("r1", null, tasks());

        assertThat(report).containsEntry("status", "complete").containsEntry("planned", Map.of("total", 4L))
                .doesNotContainKey("label");
        // 5,000 - 1,200 = 3.8 s; 4 tasks / 3.8 s = 1.0526...
        assertThat(map(report, "window")).containsEntry("start", 1_200L).containsEntry("seconds", 3.8)
                .containsEntry("definition", "last finishedAt - first startedAt");
        assertThat(map(report, "overall", "throughput")).containsEntry("tasksPerSecond", 1.053);
    }

    @Test
    @SuppressWarnings("unchecked")
    void compute_drawsTheTimelineOverTheRunWindow() {
        Map<String, Object> timeline = map(RunStatistics.compute("r1", run(4), tasks()), "timeline");

        // window 1,000 .. 5,000 ms: four 1 s buckets; finishes at offsets 700, 1,500, 3,000 and 4,000 (the end: last bucket)
        assertThat(timeline).containsEntry("start", 1_000L).containsEntry("bucketSeconds", 1L);
        assertThat((List<Map<String, Object>>) timeline.get("buckets")).extracting(b -> b.get("tasks"))
                .containsExactly(1L, 1L, 0L, 2L);
    }

    @Test
    @SuppressWarnings("unchecked")
    void compute_givesTheDistributionOfEachLatency() {
        Map<String, Object> distribution = map(RunStatistics.compute("r1", run(4), tasks()), "distribution");

        // durations 500, 1000, 2000, 2000: p1..p25 -> rank 1, p26..p50 -> rank 2, above -> 2000
        List<Long> durations = (List<Long>) distribution.get("taskDurationMs");
        assertThat(durations).hasSize(101);
        assertThat(durations.get(24)).isEqualTo(500L);
        assertThat(durations.get(25)).isEqualTo(1_000L);
        assertThat(durations.get(50)).isEqualTo(2_000L);
        assertThat((List<Long>) distribution.get("queueWaitMs")).startsWith(200L).endsWith(2_000L);
        assertThat((List<Long>) distribution.get("endToEndMs")).startsWith(700L).endsWith(4_000L);
    }

    @Test
    void compute_listsTheThreadsAndVcpuSharesWorkersRanWith() {
        List<Map<String, Object>> tasks = tasks();
        tasks.get(0).put("threads", 2L);
        tasks.get(0).put("vcpuShare", 1.0);
        tasks.get(1).put("threads", 1L);
        tasks.get(1).put("vcpuShare", 0.5);
        tasks.get(2).put("threads", 2L);
        tasks.get(2).put("vcpuShare", 1.0);

        Map<String, Object> workers = map(RunStatistics.compute("r1", run(4), tasks), "overall", "workers");

        assertThat(workers).containsEntry("threadsSeen", List.of(1L, 2L)).containsEntry("vcpuSharesSeen", List.of(0.5, 1.0));
    }

    @Test
    void compute_leavesKindsWithoutTasksOutAndGivesEmptyLatenciesOnlyACount() {
        List<Map<String, Object>> scansOnly = tasks().subList(0, 2);

        Map<String, Object> report = RunStatistics.compute("r1", run(2), scansOnly);

        assertThat(map(report, "byKind")).containsOnlyKeys("scan");
        assertThat(map(report, "overall", "coldStarts", "initMs")).containsEntry("count", 1);
        Map<String, Object> warm = RunStatistics.compute("r1", run(1), List.of(scansOnly.get(1)));
        assertThat(map(warm, "overall", "coldStarts", "initMs")).containsExactly(entry("count", 0));
    }

    @Test
    void compute_ofARunWithoutTasks() {
        Map<String, Object> report = RunStatistics.compute("r1", run(0), List.of());

        assertThat(report).containsEntry("status", "complete");
        assertThat(map(report, "window")).containsEntry("seconds", 0.0);
        assertThat(map(report, "overall")).containsEntry("tasks", 0);
        assertThat(map(report, "overall", "throughput")).containsEntry("tasksPerSecond", 0.0);
        assertThat(map(report, "overall", "coldStarts")).containsEntry("share", 0.0);
        assertThat(map(report, "byKind")).isEmpty();
        assertThat(report.get("countBy")).isEqualTo(Map.of());
    }

    @Test
    void compute_withAToleranceSaysWhetherTheFailuresStayedWithinIt() {
        // One of four planned tasks failed: 25 %.
        Map<String, Object> run = new HashMap<>(run(4));
        run.put("spec", "{\"toleratedFailurePercent\":25,\"hash\":{\"batches\":2,\"batchSize\":1,\"cost\":4}}");
        assertThat(map(RunStatistics.compute("r1", run, tasks()), "failureTolerance"))
                .containsEntry("failedTasks", 1L).containsEntry("plannedTasks", 4L).containsEntry("failedPercent", 25.0)
                .containsEntry("toleratedPercent", 25).containsEntry("withinTolerance", true);

        run.put("spec", "{\"toleratedFailurePercent\":24,\"hash\":{\"batches\":2,\"batchSize\":1,\"cost\":4}}");
        assertThat(map(RunStatistics.compute("r1", run, tasks()), "failureTolerance")).containsEntry("withinTolerance", false);
    }

    @Test
    void compute_withoutAToleranceJudgesNothing() {
        assertThat(RunStatistics.compute("r1", run(4), tasks())).doesNotContainKey("failureTolerance");
    }
}
