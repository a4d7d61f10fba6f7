package batchpipe.aggregator;

import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.CostModel;
import batchpipe.aggregator.cost.Invocations;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.UsageModel;
import batchpipe.aggregator.stats.RunStatistics;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;

import java.util.List;

/**
 * A run's report with the records it was computed from. {@link #report()} holds every figure and, in
 * its inputs, the per-invocation facts the cost came from; {@link #summary()} leaves those out, so it
 * stays small enough for the function's response.
 *
 * @param run the run record, or null when there is none
 */
public record RunReport(Report report, RunRecord run, List<TaskRecord> tasks) {
    public RunReport {
        tasks = List.copyOf(tasks);
    }

    public static RunReport of(String runId, RunRecord run, List<TaskRecord> tasks, PriceTable prices, ReportInputs inputs) {
        List<BilledInvocation> invocations = Invocations.of(tasks, inputs.reportLines());
        UsageModel.Usage usage = UsageModel.measure(run, tasks, invocations, inputs.assumptions(), prices);
        return new RunReport(new Report(RunStatistics.compute(runId, run, tasks),
                new CostModel(prices).compute(tasks, invocations, usage, inputs.assumptions()),
                new Report.Inputs(inputs.reportLinesSource(), invocations)), run, tasks);
    }

    public Report summary() {
        return report.withoutInputs();
    }
}
