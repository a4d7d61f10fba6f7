package batchpipe.aggregator;

import batchpipe.aggregator.cost.BilledInvocation;
import batchpipe.aggregator.cost.CostModel;
import batchpipe.aggregator.cost.Invocations;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.UsageModel;
import batchpipe.aggregator.stats.RunStatistics;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's report with the records it was computed from. {@link #report()} holds every figure and, under
 * {@code inputs}, the per-invocation facts the cost came from; {@link #summary()} leaves those out, so
 * it stays small enough for the summary item (DynamoDB's 400 KB item limit) and the function's response.
 */
public record RunReport(Map<String, Object> report, Map<String, Object> run, List<Map<String, Object>> tasks) {

    public static RunReport of(String runId, Map<String, Object> run, List<Map<String, Object>> tasks,
                               PriceTable prices, ReportInputs inputs) {
        Map<String, Object> report = RunStatistics.compute(runId, run, tasks);
        List<BilledInvocation> invocations = Invocations.of(tasks, inputs.reportLines());
        UsageModel.Usage usage = UsageModel.measure(run, tasks, invocations, inputs.assumptions(), prices);
        report.put("cost", new CostModel(prices).compute(tasks, invocations, usage, inputs.assumptions()));
        Map<String, Object> in = new LinkedHashMap<>();
        in.put("reportLines", inputs.reportLinesSource());
        in.put("invocations", invocations.stream().map(BilledInvocation::toJson).toList());
        report.put("inputs", in);
        return new RunReport(report, run, tasks);
    }

    public Map<String, Object> summary() {
        Map<String, Object> summary = new LinkedHashMap<>(report);
        summary.remove("inputs");
        return summary;
    }
}
