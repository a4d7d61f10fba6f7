package batchpipe.aggregator.report;

import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

/** A small finished run: two scan tasks and one hash task on x86_64, two worker invocations. */
final class ReportFixtures {
    private ReportFixtures() {
    }

    static Map<String, Object> task(String taskId, String kind, String requestId, long started, long finished) {
        Map<String, Object> t = new HashMap<>();
        t.put("pk", "run#r1");
        t.put("sk", "task#" + taskId);
        t.put("runId", "r1");
        t.put("taskId", taskId);
        t.put("kind", kind);
        t.put("status", "done");
        t.put("enqueuedAt", 1_000L);
        t.put("startedAt", started);
        t.put("finishedAt", finished);
        t.put("durationMs", finished - started);
        t.put("requestId", requestId);
        t.put("functionName", "worker");
        t.put("memoryMb", 1024L);
        t.put("architecture", "x86_64");
        t.put("threads", 1L);
        t.put("vcpuShare", 0.58);
        t.put("coldStart", false);
        return t;
    }

    static List<Map<String, Object>> tasks() {
        Map<String, Object> scanA = task("scan-a", "scan", "req-1", 1_100, 1_600);
        scanA.put("coldStart", true);
        scanA.put("initMs", 250L);
        scanA.put("events", 1_000L);
        scanA.put("bytes", 4_000_000L);
        scanA.put("countBy", Map.of("level", Map.of("INFO", 900L, "<script>alert(1)</script>", 100L)));
        Map<String, Object> scanB = task("scan-b", "scan", "req-1", 1_200, 2_200);
        scanB.put("events", 500L);
        scanB.put("bytes", 2_000_000L);
        scanB.put("reason", null);
        Map<String, Object> hash = task("hash-000001", "hash", "req-2", 2_000, 4_000);
        hash.put("hashes", 10L);
        hash.put("cost", 10L);
        return List.of(scanA, scanB, hash);
    }

    static Map<String, Object> run(String label) {
        Map<String, Object> run = new HashMap<>();
        run.put("pk", "run#r1");
        run.put("sk", "run");
        run.put("label", label);
        run.put("createdAt", 1_000L);
        run.put("planned", Map.of("scan", 2L, "hash", 1L, "total", 3L));
        run.put("shards", 1L);
        run.put("spec", "{\"scan\":[{\"bucket\":\"b\"}]}");
        return run;
    }

    static RunReport report(String label) {
        return RunReport.of("r1", run(label), tasks(), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }

    /** The same run, with scan-a's level counted approximately (past the worker's exact budget). */
    static RunReport reportWithApproximateCounts() {
        List<Map<String, Object>> tasks = tasks();
        tasks.get(0).put("countByAccuracy", Map.of("level", Map.of("counts", "approximate", "maxOverCount", 1465L, "distinct", "estimated")));
        return RunReport.of("r1", run("demo"), tasks, PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }
}
