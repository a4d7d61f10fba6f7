package batchpipe.aggregator.delivery;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The few figures a person wants before opening the report, for the summary item and the event. Only
 * bounded values: counts, rates, a percentile, the cost; never countBy, problems or anything else whose
 * size follows the data, so the summary item stays a few hundred bytes whatever the run held.
 */
public final class Headline {
    private Headline() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> of(Map<String, Object> report) {
        Map<String, Object> overall = (Map<String, Object>) report.get("overall");
        Map<String, Object> throughput = (Map<String, Object>) overall.get("throughput");
        Map<String, Object> latency = (Map<String, Object>) overall.get("latency");
        Map<String, Object> headline = new LinkedHashMap<>();
        headline.put("tasks", overall.get("tasks"));
        if (report.get("planned") instanceof Map<?, ?> planned) headline.put("plannedTasks", planned.get("total"));
        headline.put("byStatus", overall.get("byStatus"));
        if (report.get("window") instanceof Map<?, ?> window) headline.put("windowSeconds", window.get("seconds"));
        headline.put("tasksPerSecond", throughput.get("tasksPerSecond"));
        headline.put("eventsPerSecond", throughput.get("eventsPerSecond"));
        headline.put("hashesPerSecond", throughput.get("hashesPerSecond"));
        headline.put("taskDurationP99Ms", ((Map<String, Object>) latency.get("taskDurationMs")).get("p99"));
        if (report.get("cost") instanceof Map<?, ?> cost) {
            headline.put("costCurrency", cost.get("currency"));
            headline.put("costPerRun", cost.get("total"));
            headline.put("costPerMillionTasks", cost.get("perMillionTasks"));
        }
        return headline;
    }
}
