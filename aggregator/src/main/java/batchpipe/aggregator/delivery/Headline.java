package batchpipe.aggregator.delivery;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.math.BigDecimal;
import java.util.Map;

/**
 * The few figures a person wants before opening the report, for the summary item and the event. Only
 * bounded values: counts, rates, a percentile, the cost; never countBy, problems or anything else whose
 * size follows the data, so the summary item stays a few hundred bytes whatever the run held.
 *
 * @param taskDurationP99Ms null for a run without tasks
 * @param costCurrency      with the two costs: null for a report without a cost
 */
public record Headline(int tasks, long plannedTasks, Map<String, Long> byStatus, double windowSeconds, double tasksPerSecond,
                       double eventsPerSecond, double hashesPerSecond, Long taskDurationP99Ms, String costCurrency,
                       BigDecimal costPerRun, BigDecimal costPerMillionTasks) implements JsonWritable {

    public static Headline of(Report report) {
        RunFigures figures = report.figures();
        RunFigures.Group overall = figures.overall();
        RunFigures.Throughput throughput = overall.throughput();
        return new Headline(overall.tasks(), figures.planned().total(), overall.byStatus(), figures.window().seconds(),
                throughput.tasksPerSecond(), throughput.eventsPerSecond(), throughput.hashesPerSecond(),
                overall.latency().taskDurationMs().p99(), report.cost() == null ? null : report.cost().currency(),
                report.cost() == null ? null : report.cost().total(), report.cost() == null ? null : report.cost().perMillionTasks());
    }

    @Override
    public Object toJsonValue() {
        JsonFields json = new JsonFields().put("tasks", tasks).put("plannedTasks", plannedTasks).put("byStatus", byStatus)
                .put("windowSeconds", windowSeconds).put("tasksPerSecond", tasksPerSecond).put("eventsPerSecond", eventsPerSecond)
                .put("hashesPerSecond", hashesPerSecond).put("taskDurationP99Ms", taskDurationP99Ms);
        if (costCurrency != null) {
            json.put("costCurrency", costCurrency).put("costPerRun", costPerRun).put("costPerMillionTasks", costPerMillionTasks);
        }
        return json;
    }
}
