package batchpipe.aggregator.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A run's headline figures as one CloudWatch Embedded Metric Format document: printed as a log line
 * on Lambda, CloudWatch turns it into metrics in the {@value #NAMESPACE} namespace with the run's label
 * as the only dimension (run ids would make a metric per run), and the run id as a searchable property.
 */
public final class EmfMetrics {
    public static final String NAMESPACE = "Batchpipe";

    private EmfMetrics() {
    }

    @SuppressWarnings("unchecked")
    public static Map<String, Object> document(Map<String, Object> report, long timestampMs) {
        Map<String, Object> overall = (Map<String, Object>) report.get("overall");
        Map<String, Object> throughput = (Map<String, Object>) overall.get("throughput");
        Map<String, Object> latency = (Map<String, Object>) overall.get("latency");
        Map<String, Object> cost = (Map<String, Object>) report.get("cost");
        Map<String, Object> values = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        put(values, units, "Tasks", overall.get("tasks"), "Count");
        put(values, units, "TasksPerSecond", throughput.get("tasksPerSecond"), "Count/Second");
        put(values, units, "EventsPerSecond", throughput.get("eventsPerSecond"), "Count/Second");
        put(values, units, "UncompressedMBPerSecond", throughput.get("uncompressedMBPerSecond"), "Megabytes/Second");
        put(values, units, "HashesPerSecond", throughput.get("hashesPerSecond"), "Count/Second");
        Map<String, Object> duration = (Map<String, Object>) latency.get("taskDurationMs");
        put(values, units, "TaskDurationP50", duration.get("p50"), "Milliseconds");
        put(values, units, "TaskDurationP99", duration.get("p99"), "Milliseconds");
        put(values, units, "EndToEndP99", ((Map<String, Object>) latency.get("endToEndMs")).get("p99"), "Milliseconds");
        put(values, units, "ColdStartShare", ((Map<String, Object>) overall.get("coldStarts")).get("share"), "None");
        if (cost != null) {
            put(values, units, "CostPerRunUsd", cost.get("total"), "None");
            put(values, units, "CostPerMillionTasksUsd", cost.get("perMillionTasks"), "None");
        }
        List<Map<String, Object>> metrics = new ArrayList<>();
        units.forEach((name, unit) -> metrics.add(Map.of("Name", name, "Unit", unit)));
        Map<String, Object> directive = new LinkedHashMap<>();
        directive.put("Namespace", NAMESPACE);
        directive.put("Dimensions", List.of(List.of("Label")));
        directive.put("Metrics", metrics);
        Map<String, Object> aws = new LinkedHashMap<>();
        aws.put("Timestamp", timestampMs);
        aws.put("CloudWatchMetrics", List.of(directive));
        Map<String, Object> document = new LinkedHashMap<>();
        document.put("_aws", aws);
        document.put("Label", report.get("label") instanceof String label ? label : "unlabelled");
        document.put("runId", report.get("runId"));
        document.putAll(values);
        return document;
    }

    /** Absent figures (a percentile of no tasks) are left out rather than sent as zero. */
    private static void put(Map<String, Object> values, Map<String, String> units, String name, Object value, String unit) {
        if (value instanceof Number) {
            values.put(name, value);
            units.put(name, unit);
        }
    }
}
