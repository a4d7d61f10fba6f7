package batchpipe.local.cli;

import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;

import java.util.List;

/** Finished one-task runs whose p99 task duration (their one task's) and start are chosen, for history tests. */
final class HistoryRuns {
    private HistoryRuns() {
    }

    /** Run {@code runId} of {@code label}, created {@code minute} minutes into the day, its one hash task lasting {@code durationMs}. */
    static RunReport report(String runId, String label, int minute, long durationMs) {
        long createdAt = 1_764_547_200_000L + minute * 60_000L;
        RunRecord run = new RunRecord(runId, label, null, new Planned(0, 1, 1), 4, createdAt, "running", 1, null, null, List.of(), null, null);
        TaskRecord task = TaskRecord.builder().runId(runId).taskId("hash-000001").kind("hash").status(TaskStatus.DONE).enqueuedAt(createdAt)
                .startedAt(createdAt + 100).finishedAt(createdAt + 100 + durationMs)
                .invocation(new WorkerInvocation("req-" + runId, "worker", null, 1024, "arm64", null, null, null, null))
                .hash(new HashOutcome(4, 4)).build();
        return RunReport.of(runId, run, List.of(task), PriceTable.defaults(), ReportInputs.withoutReportLines(CostAssumptions.defaults()));
    }
}
