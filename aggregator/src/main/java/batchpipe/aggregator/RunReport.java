package batchpipe.aggregator;

import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.report.TaskRows;
import batchpipe.common.run.InvocationRecord;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;

import java.util.List;

/**
 * A run's report with what tasks.csv is written from. {@link #report()} holds every figure and, in its
 * inputs, the per-invocation facts the cost came from; {@link #summary()} leaves those out, so it stays
 * small enough for the function's response. The rows of tasks.csv are a spill file, not records
 * ({@link RunFold}): {@link #close()} deletes it once the files are written.
 *
 * @param run      the run record, or null when there is none
 * @param tasksCsv the rows of tasks.csv, one per task record, in the order they were read
 */
public record RunReport(Report report, RunRecord run, TaskRows tasksCsv) implements AutoCloseable {

    public static RunReport of(String runId, RunRecord run, List<TaskRecord> tasks, PriceTable prices, ReportInputs inputs) {
        return of(runId, run, tasks, List.of(), prices, inputs);
    }

    /**
     * The report of records already in a list, folded in the list's order.
     *
     * @param workerInvocations the run's invocation records (the per-call DynamoDB view)
     */
    public static RunReport of(String runId, RunRecord run, List<TaskRecord> tasks, List<InvocationRecord> workerInvocations,
                               PriceTable prices, ReportInputs inputs) {
        RunFold fold = new RunFold(prices);
        try {
            tasks.forEach(fold::add);
            workerInvocations.forEach(fold::add);
            return fold.report(runId, run, inputs);
        } finally {
            fold.close();
        }
    }

    public Report summary() {
        return report.withoutInputs();
    }

    /** The task records the report was built from. */
    public long taskCount() {
        return tasksCsv.rows();
    }

    @Override
    public void close() {
        tasksCsv.close();
    }
}
