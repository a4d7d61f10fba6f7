package batchpipe.aggregator.report;

import java.util.List;
import java.util.Map;

/** The report as Markdown: the headline figures and tables a person reads first. */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> report) {
        StringBuilder md = new StringBuilder();
        md.append("# Batchpipe run ").append(report.get("runId")).append("\n\n");
        if (report.get("label") != null) md.append("Label: ").append(report.get("label")).append("\n\n");
        Map<String, Object> window = (Map<String, Object>) report.get("window");
        Map<String, Object> overall = (Map<String, Object>) report.get("overall");
        Map<String, Object> totals = (Map<String, Object>) overall.get("totals");
        md.append("Status: **").append(report.get("status")).append("**, ")
                .append(overall.get("tasks")).append(" tasks ").append(overall.get("byStatus"))
                .append(" in ").append(window.get("seconds")).append(" s (").append(window.get("definition")).append(").\n\n");
        md.append("| total | value |\n|---|---:|\n");
        md.append("| events scanned | ").append(totals.get("events")).append(" |\n");
        md.append("| malformed lines | ").append(totals.get("malformed")).append(" |\n");
        md.append("| uncompressed bytes | ").append(totals.get("bytes")).append(" |\n");
        md.append("| compressed bytes | ").append(totals.get("compressedBytes")).append(" |\n");
        md.append("| hashes computed | ").append(totals.get("hashes")).append(" |\n\n");

        md.append("## Throughput and latency by kind\n\n");
        md.append("| group | tasks | tasks/s | events/s | MB/s | hashes/s | duration p50 | p90 | p99 | max (ms) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        row(md, "all", overall);
        ((Map<String, Object>) report.get("byKind")).forEach((kind, g) -> row(md, kind, (Map<String, Object>) g));
        ((Map<String, Object>) report.get("byPlatform")).forEach((platform, g) -> row(md, platform, (Map<String, Object>) g));

        md.append("\n## Latency percentiles, all tasks (ms, nearest rank)\n\n");
        md.append("| measure | n | p50 | p90 | p95 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        Map<String, Object> latency = (Map<String, Object>) overall.get("latency");
        latency.forEach((name, s) -> {
            Map<String, Object> stats = (Map<String, Object>) s;
            md.append("| ").append(name).append(" | ").append(stats.get("count"));
            for (String p : List.of("p50", "p90", "p95", "p99", "p99.9", "max")) {
                md.append(" | ").append(stats.getOrDefault(p, "–"));
            }
            md.append(" |\n");
        });
        Map<String, Object> dynamo = (Map<String, Object>) overall.get("dynamoDb");
        Map<String, Object> cold = (Map<String, Object>) overall.get("coldStarts");
        md.append("\nCold starts: ").append(cold.get("tasks")).append(" tasks (share ").append(cold.get("share")).append(").")
                .append(" DynamoDB writes: ").append(dynamo.get("writeCallsPerTask")).append(" calls per task, mean ")
                .append(dynamo.get("meanWriteMs")).append(" ms, slowest ").append(dynamo.get("slowestWriteMs")).append(" ms.\n");

        Map<String, Object> countBy = (Map<String, Object>) report.get("countBy");
        if (!countBy.isEmpty()) {
            md.append("\n## Events by field\n");
            countBy.forEach((path, values) -> {
                md.append("\n| ").append(path).append(" | events |\n|---|---:|\n");
                ((Map<String, Object>) values).forEach((value, n) -> md.append("| ").append(value).append(" | ").append(n).append(" |\n"));
            });
        }
        List<Map<String, Object>> problems = (List<Map<String, Object>>) report.get("problems");
        if (!problems.isEmpty()) {
            md.append("\n## Tasks that did not finish as done\n\n| task | status | reason |\n|---|---|---|\n");
            problems.forEach(p -> md.append("| ").append(p.get("taskId")).append(" | ").append(p.get("status"))
                    .append(" | ").append(String.valueOf(p.get("reason")).replace("|", "\\|")).append(" |\n"));
        }
        return md.toString();
    }

    @SuppressWarnings("unchecked")
    private static void row(StringBuilder md, String name, Map<String, Object> g) {
        Map<String, Object> t = (Map<String, Object>) g.get("throughput");
        Map<String, Object> d = (Map<String, Object>) ((Map<String, Object>) g.get("latency")).get("taskDurationMs");
        md.append("| ").append(name).append(" | ").append(g.get("tasks"))
                .append(" | ").append(t.get("tasksPerSecond")).append(" | ").append(t.get("eventsPerSecond"))
                .append(" | ").append(t.get("uncompressedMBPerSecond")).append(" | ").append(t.get("hashesPerSecond"))
                .append(" | ").append(d.getOrDefault("p50", "–")).append(" | ").append(d.getOrDefault("p90", "–"))
                .append(" | ").append(d.getOrDefault("p99", "–")).append(" | ").append(d.getOrDefault("max", "–")).append(" |\n");
    }
}
