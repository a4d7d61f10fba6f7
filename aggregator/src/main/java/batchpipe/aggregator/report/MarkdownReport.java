package batchpipe.aggregator.report;

import java.util.List;
import java.util.Map;

/**
 * The report as Markdown: the headline figures and tables a person reads first. Every text that can come
 * from outside the code (run id, label, countBy paths and values, group names, task ids and reasons, price
 * table and function names) goes through {@link MarkdownText}; numbers the code computed are written as
 * they are.
 */
public final class MarkdownReport {
    private MarkdownReport() {
    }

    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> report) {
        StringBuilder md = new StringBuilder();
        md.append("# Batchpipe run ").append(text(report.get("runId"))).append("\n\n");
        if (report.get("label") != null) md.append("Label: ").append(text(report.get("label"))).append("\n\n");
        Map<String, Object> window = (Map<String, Object>) report.get("window");
        Map<String, Object> overall = (Map<String, Object>) report.get("overall");
        Map<String, Object> totals = (Map<String, Object>) overall.get("totals");
        md.append("Status: **").append(text(report.get("status"))).append("**, ")
                .append(overall.get("tasks")).append(" tasks ").append(text(overall.get("byStatus")))
                .append(" in ").append(window.get("seconds")).append(" s (").append(window.get("definition")).append(").\n\n");
        if (report.get("failureTolerance") instanceof Map<?, ?> tolerance) {
            md.append("Failures: ").append(tolerance.get("failedTasks")).append(" of ").append(tolerance.get("plannedTasks"))
                    .append(" planned tasks (").append(tolerance.get("failedPercent")).append("%, failed or rejected); tolerated ")
                    .append(tolerance.get("toleratedPercent")).append("%: **")
                    .append(Boolean.TRUE.equals(tolerance.get("withinTolerance")) ? "within tolerance" : "tolerance exceeded").append("**.\n\n");
        }
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

        platforms(md, (Map<String, Object>) report.get("byPlatform"));
        if (report.get("cost") instanceof Map<?, ?> cost) cost(md, (Map<String, Object>) cost);

        Map<String, Object> countBy = (Map<String, Object>) report.get("countBy");
        if (!countBy.isEmpty()) {
            md.append("\n## Events by field\n");
            countBy.forEach((path, values) -> {
                md.append("\n| ").append(text(path)).append(" | events |\n|---|---:|\n");
                ((Map<String, Object>) values).forEach((value, n) -> md.append("| ").append(text(value)).append(" | ").append(n).append(" |\n"));
                String note = countByNote(report, path);
                if (note != null) md.append("\n").append(note).append("\n");
            });
        }
        List<Map<String, Object>> problems = (List<Map<String, Object>>) report.get("problems");
        if (!problems.isEmpty()) {
            md.append("\n## Tasks that did not finish as done\n\n| task | status | reason |\n|---|---|---|\n");
            problems.forEach(p -> md.append("| ").append(text(p.get("taskId"))).append(" | ").append(text(p.get("status")))
                    .append(" | ").append(text(p.get("reason"))).append(" |\n"));
        }
        return md.toString();
    }

    /**
     * "Counts approximate (heavy-hitters sketch): each may over-state by up to 1465 events; distinct values
     * estimated." for a countBy path the report's {@code countByAccuracy} does not call exact, else null.
     */
    static String countByNote(Map<String, Object> report, String path) {
        if (!(report.get("countByAccuracy") instanceof Map<?, ?> accuracy) || !(accuracy.get(path) instanceof Map<?, ?> fields)) {
            return null;
        }
        List<String> parts = new java.util.ArrayList<>();
        if ("approximate".equals(fields.get("counts"))) {
            parts.add("counts approximate (heavy-hitters sketch): each may over-state by up to " + fields.get("maxOverCount") + " events");
        }
        if ("estimated".equals(fields.get("distinct"))) parts.add("distinct values estimated");
        if (parts.isEmpty()) return null;
        String note = String.join("; ", parts);
        return Character.toUpperCase(note.charAt(0)) + note.substring(1) + ".";
    }

    @SuppressWarnings("unchecked")
    private static void platforms(StringBuilder md, Map<String, Object> byPlatform) {
        md.append("\n## Platforms (architecture / memory)\n\n");
        md.append("| platform | tasks | cold starts | init p50 (ms) | threads seen | vCPU shares seen | queue wait p99 | end to end p99 (ms) |\n");
        md.append("|---|---:|---:|---:|---|---|---:|---:|\n");
        byPlatform.forEach((platform, value) -> {
            Map<String, Object> g = (Map<String, Object>) value;
            Map<String, Object> cold = (Map<String, Object>) g.get("coldStarts");
            Map<String, Object> workers = (Map<String, Object>) g.get("workers");
            Map<String, Object> latency = (Map<String, Object>) g.get("latency");
            md.append("| ").append(text(platform)).append(" | ").append(g.get("tasks"))
                    .append(" | ").append(cold.get("tasks")).append(" (").append(cold.get("share")).append(")")
                    .append(" | ").append(((Map<String, Object>) cold.get("initMs")).getOrDefault("p50", "–"))
                    .append(" | ").append(workers == null ? "–" : workers.get("threadsSeen"))
                    .append(" | ").append(workers == null ? "–" : workers.get("vcpuSharesSeen"))
                    .append(" | ").append(((Map<String, Object>) latency.get("queueWaitMs")).getOrDefault("p99", "–"))
                    .append(" | ").append(((Map<String, Object>) latency.get("endToEndMs")).getOrDefault("p99", "–")).append(" |\n");
        });
    }

    /** "worker arm64 1769 MB: peak 412 MB" for each Lambda group whose REPORT lines say how much memory it used. */
    @SuppressWarnings("unchecked")
    static List<String> memoryPeaks(Map<String, Object> cost) {
        List<String> peaks = new java.util.ArrayList<>();
        if (!(cost.get("lambda") instanceof Map<?, ?> lambda) || !(lambda.get("groups") instanceof List<?> groups)) return peaks;
        for (Object group : groups) {
            Map<String, Object> g = (Map<String, Object>) group;
            if (g.get("maxMemoryUsedMb") != null) {
                peaks.add(g.get("function") + " " + g.get("architecture") + " " + g.get("memoryMb") + " MB: peak " + g.get("maxMemoryUsedMb") + " MB");
            }
        }
        return peaks;
    }

    @SuppressWarnings("unchecked")
    private static void cost(StringBuilder md, Map<String, Object> cost) {
        Map<String, Object> table = (Map<String, Object>) cost.get("priceTable");
        Map<String, Object> durations = (Map<String, Object>) cost.get("durations");
        md.append("\n## Cost (").append(text(cost.get("currency"))).append(")\n\n");
        md.append("Prices: ").append(text(table.get("region"))).append(", dated ").append(text(table.get("date")))
                .append(" (").append(text(table.get("origin"))).append("). Lambda durations: ")
                .append(durations.get("REPORT line")).append(" invocations billed from REPORT lines, ")
                .append(durations.get("task records")).append(" measured from task records.");
        List<String> peaks = memoryPeaks(cost);
        if (!peaks.isEmpty()) md.append(" Max Memory Used (REPORT lines): ").append(text(String.join("; ", peaks))).append(".");
        md.append("\n\n");
        md.append("| service | item | quantity | unit | unit price | cost | how |\n|---|---|---:|---|---:|---:|---|\n");
        for (Map<String, Object> line : (List<Map<String, Object>>) cost.get("lines")) {
            md.append("| ").append(line.get("service")).append(" | ").append(text(line.get("item")))
                    .append(" | ").append(plain(line.get("quantity"))).append(" | ").append(line.get("unit"))
                    .append(" | ").append(plain(line.get("unitPrice"))).append(" | ").append(plain(line.get("cost")))
                    .append(" | ").append(text(line.get("formula"))).append(" |\n");
        }
        md.append("| **total per run** | | | | | **").append(plain(cost.get("total"))).append("** | |\n\n");
        md.append("Per million tasks: ").append(plain(cost.get("perMillionTasks"))).append(".");
        ((Map<String, Object>) cost.get("byKind")).forEach((kind, value) -> {
            Map<String, Object> k = (Map<String, Object>) value;
            md.append(" ").append(kind).append(": ").append(plain(k.get("cost"))).append(" (share ").append(plain(k.get("share")))
                    .append(" of task time)");
            if (k.get("perGbScanned") != null) md.append(", ").append(plain(k.get("perGbScanned"))).append(" per GB scanned");
            if (k.get("perThousandHashes") != null) md.append(", ").append(plain(k.get("perThousandHashes"))).append(" per thousand hashes");
            md.append(".");
        });
        md.append("\n\n### By architecture\n\n");
        md.append("| architecture | basis | GB-s | Lambda compute | INIT | requests | other services | total per run | per million tasks |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> assumptions = new java.util.ArrayList<>();
        ((Map<String, Object>) cost.get("byArchitecture")).forEach((architecture, value) -> {
            if (!(value instanceof Map<?, ?> m) || !m.containsKey("basis")) return;
            Map<String, Object> a = (Map<String, Object>) value;
            md.append("| ").append(architecture).append(" | ").append(a.get("basis")).append(" | ").append(plain(a.get("gbSeconds")))
                    .append(" | ").append(plain(a.get("lambdaCompute"))).append(" | ").append(plain(a.get("lambdaInit")))
                    .append(" | ").append(plain(a.get("lambdaRequests"))).append(" | ").append(plain(a.get("otherServices")))
                    .append(" | ").append(plain(a.get("total"))).append(" | ").append(plain(a.get("perMillionTasks"))).append(" |\n");
            if (a.get("assumption") != null) assumptions.add(architecture + ": " + a.get("assumption"));
        });
        for (String assumption : assumptions) md.append("\n- ").append(assumption);
        Map<String, Object> monthly = (Map<String, Object>) cost.get("monthly");
        md.append("\n\n### Monthly projection at ").append(monthly.get("runsPerMonth")).append(" runs a month\n\n");
        md.append("| architecture | GB-s | Lambda compute (volume tiers) | requests | other services | total |\n|---|---:|---:|---:|---:|---:|\n");
        ((Map<String, Object>) monthly.get("byArchitecture")).forEach((architecture, value) -> {
            Map<String, Object> m = (Map<String, Object>) value;
            md.append("| ").append(architecture).append(" | ").append(plain(m.get("gbSeconds"))).append(" | ").append(plain(m.get("lambdaCompute")))
                    .append(" | ").append(plain(m.get("lambdaRequests"))).append(" | ").append(plain(m.get("otherServices")))
                    .append(" | ").append(plain(m.get("total"))).append(" |\n");
        });
        md.append("\nNot included: ").append(String.join("; ", (List<String>) cost.get("notIncluded"))).append(".\n");
    }

    /** Numbers as written in report.json (no exponent); absent as a dash. */
    static String plain(Object value) {
        if (value == null) return "–";
        if (value instanceof java.math.BigDecimal d) return d.toPlainString();
        return String.valueOf(value);
    }

    private static String text(Object value) {
        return MarkdownText.escape(value);
    }

    @SuppressWarnings("unchecked")
    private static void row(StringBuilder md, String name, Map<String, Object> g) {
        Map<String, Object> t = (Map<String, Object>) g.get("throughput");
        Map<String, Object> d = (Map<String, Object>) ((Map<String, Object>) g.get("latency")).get("taskDurationMs");
        md.append("| ").append(text(name)).append(" | ").append(g.get("tasks"))
                .append(" | ").append(t.get("tasksPerSecond")).append(" | ").append(t.get("eventsPerSecond"))
                .append(" | ").append(t.get("uncompressedMBPerSecond")).append(" | ").append(t.get("hashesPerSecond"))
                .append(" | ").append(d.getOrDefault("p50", "–")).append(" | ").append(d.getOrDefault("p90", "–"))
                .append(" | ").append(d.getOrDefault("p99", "–")).append(" | ").append(d.getOrDefault("max", "–")).append(" |\n");
    }
}
