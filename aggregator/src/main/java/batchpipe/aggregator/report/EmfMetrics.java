package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.JsonFields;

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

    public static JsonFields document(Report report, long timestampMs) {
        RunFigures.Group overall = report.figures().overall();
        RunFigures.Throughput throughput = overall.throughput();
        Percentiles.Summary duration = overall.latency().taskDurationMs();
        Map<String, Number> values = new LinkedHashMap<>();
        Map<String, String> units = new LinkedHashMap<>();
        put(values, units, "Tasks", overall.tasks(), "Count");
        put(values, units, "TasksPerSecond", throughput.tasksPerSecond(), "Count/Second");
        put(values, units, "EventsPerSecond", throughput.eventsPerSecond(), "Count/Second");
        put(values, units, "UncompressedMBPerSecond", throughput.uncompressedMBPerSecond(), "Megabytes/Second");
        put(values, units, "HashesPerSecond", throughput.hashesPerSecond(), "Count/Second");
        put(values, units, "TaskDurationP50", duration.p50(), "Milliseconds");
        put(values, units, "TaskDurationP99", duration.p99(), "Milliseconds");
        put(values, units, "EndToEndP99", overall.latency().endToEndMs().p99(), "Milliseconds");
        put(values, units, "ColdStartShare", overall.coldStarts().share(), "None");
        if (report.cost() != null) {
            put(values, units, "CostPerRunUsd", report.cost().total(), "None");
            put(values, units, "CostPerMillionTasksUsd", report.cost().perMillionTasks(), "None");
        }
        List<JsonFields> metrics = new ArrayList<>();
        units.forEach((name, unit) -> metrics.add(new JsonFields().put("Name", name).put("Unit", unit)));
        JsonFields directive = new JsonFields().put("Namespace", NAMESPACE).put("Dimensions", List.of(List.of("Label"))).put("Metrics", metrics);
        JsonFields aws = new JsonFields().put("Timestamp", timestampMs).put("CloudWatchMetrics", List.of(directive));
        JsonFields document = new JsonFields().put("_aws", aws)
                .put("Label", report.figures().label() != null ? report.figures().label() : "unlabelled").put("runId", report.runId());
        values.forEach(document::put);
        return document;
    }

    /** Absent figures (a percentile of no tasks, the cost per million of no tasks) are left out rather than sent as zero. */
    private static void put(Map<String, Number> values, Map<String, String> units, String name, Number value, String unit) {
        if (value != null) {
            values.put(name, value);
            units.put(name, unit);
        }
    }
}
