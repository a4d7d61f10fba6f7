package batchpipe.aggregator.report;

import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;

import java.util.List;
import java.util.Map;

/**
 * A small finished run: two scan tasks and one hash task on x86_64, two worker invocations. Public, in the
 * aggregator's test jar, for the CLI's report tests (batchpipe.local.report) that read such a run.
 */
public final class ReportFixtures {
    private ReportFixtures() {
    }

    static TaskRecords.Builder task(String taskId, String kind, String requestId, long started, long finished) {
        return TaskRecords.task(taskId, kind).times(1_000L, started, finished).invocation(requestId, "worker").platform("x86_64", 1024)
                .workers(1, 0.58).cold(false, null);
    }

    static TaskRecords.Builder[] builders() {
        return new TaskRecords.Builder[]{
                task("scan-a", "scan", "req-1", 1_100, 1_600).cold(true, 250L).scanned(1_000, 0, 4_000_000, 0)
                        .countBy("level", Map.of("INFO", 900L, "<script>alert(1)</script>", 100L)),
                task("scan-b", "scan", "req-1", 1_200, 2_200).scanned(500, 0, 2_000_000, 0),
                task("hash-000001", "hash", "req-2", 2_000, 4_000).hashed(10, 10)};
    }

    public static List<TaskRecord> tasks() {
        return java.util.Arrays.stream(builders()).map(TaskRecords.Builder::build).toList();
    }

    public static RunRecord run(String label) {
        return TaskRecords.run(label, 1_000, 2, 1, "{\"scan\":[{\"bucket\":\"b\"}]}");
    }

    public static RunReport report(String label) {
        return RunReport.of("r1", run(label), tasks(), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }

    /** The same run, with scan-a's level counted approximately (past the worker's exact budget). */
    static RunReport reportWithApproximateCounts() {
        TaskRecords.Builder[] builders = builders();
        builders[0].countByAccuracy("level", new CountAccuracy(false, 1465, false));
        List<TaskRecord> tasks = java.util.Arrays.stream(builders).map(TaskRecords.Builder::build).toList();
        return RunReport.of("r1", run("demo"), tasks, PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }
}
