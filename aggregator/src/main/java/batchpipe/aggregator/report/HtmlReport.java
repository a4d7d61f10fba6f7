package batchpipe.aggregator.report;

import batchpipe.common.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * report.html: one self-contained page (inline SVG and CSS, no script, no external load) with the
 * latency distribution, throughput over time, cost by architecture and the report's tables. It reads
 * only the report map, so any report.json can be rendered again.
 */
public final class HtmlReport {
    static final List<String> MEASURES = List.of("taskDurationMs", "queueWaitMs", "endToEndMs");
    static final List<String> PERCENTILES = List.of("p50", "p90", "p95", "p99", "p99.9", "max", "mean");

    private HtmlReport() {
    }

    @SuppressWarnings("unchecked")
    public static String render(Map<String, Object> figures) {
        // Through JSON first: numbers then print exactly as report.json writes them, and a page rendered
        // again from report.json is the same page.
        Map<String, Object> report = Json.parseObject(Json.write(figures));
        Map<String, Object> overall = map(report, "overall");
        Map<String, Object> window = map(report, "window");
        Map<String, Object> cost = report.get("cost") instanceof Map<?, ?> c ? (Map<String, Object>) c : null;
        StringBuilder html = new StringBuilder(Html.head("Batchpipe run " + report.get("runId")));
        html.append("<h1>Batchpipe run ").append(Html.escape(report.get("runId"))).append("</h1>\n");
        html.append("<p class=\"sub\">");
        if (report.get("label") != null) html.append("Label <b>").append(Html.escape(report.get("label"))).append("</b> · ");
        html.append("status <b>").append(Html.escape(report.get("status"))).append("</b> · ").append(Html.escape(overall.get("tasks")))
                .append(" tasks ").append(Html.escape(overall.get("byStatus"))).append(" in ").append(Html.escape(window.get("seconds")))
                .append(" s (").append(Html.escape(window.get("definition"))).append(")</p>\n");
        if (report.get("failureTolerance") instanceof Map<?, ?> tolerance) {
            html.append("<p class=\"sub\">Failures ").append(Html.escape(tolerance.get("failedTasks"))).append(" of ")
                    .append(Html.escape(tolerance.get("plannedTasks"))).append(" planned tasks (").append(Html.escape(tolerance.get("failedPercent")))
                    .append("%, failed or rejected) · tolerated ").append(Html.escape(tolerance.get("toleratedPercent"))).append("% · <b>")
                    .append(Boolean.TRUE.equals(tolerance.get("withinTolerance")) ? "within tolerance" : "tolerance exceeded").append("</b></p>\n");
        }

        Map<String, Object> throughput = map(overall, "throughput");
        Map<String, Object> duration = map(map(overall, "latency"), "taskDurationMs");
        html.append("<div class=\"cards\">");
        card(html, "tasks / s", throughput.get("tasksPerSecond"));
        card(html, "events / s", throughput.get("eventsPerSecond"));
        card(html, "uncompressed MB / s", throughput.get("uncompressedMBPerSecond"));
        card(html, "hashes / s", throughput.get("hashesPerSecond"));
        card(html, "task duration p50 / p99 (ms)", duration.getOrDefault("p50", "–") + " / " + duration.getOrDefault("p99", "–"));
        if (cost != null) {
            card(html, "cost per run (" + cost.get("currency") + ")", MarkdownReport.plain(cost.get("total")));
            card(html, "cost per million tasks", MarkdownReport.plain(cost.get("perMillionTasks")));
        }
        html.append("</div>\n");

        html.append("<h2>Charts</h2>\n<div class=\"charts\">\n");
        html.append(latencyChart(report)).append('\n');
        html.append(throughputChart(report)).append('\n');
        if (cost != null) html.append(costChart(cost)).append('\n');
        html.append("</div>\n");

        html.append("<h2>Latency percentiles (ms, nearest rank)</h2>\n");
        html.append("<table id=\"latency-table\"><tr><th>group</th><th>measure</th><th class=\"n\">n</th>");
        for (String p : PERCENTILES) html.append("<th class=\"n\">").append(p).append("</th>");
        html.append("</tr>");
        for (Map.Entry<String, Map<String, Object>> g : groups(report).entrySet()) {
            for (String measure : MEASURES) {
                Map<String, Object> s = map(map(g.getValue(), "latency"), measure);
                html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td><td>").append(measure).append("</td>");
                num(html, s.get("count"));
                for (String p : PERCENTILES) num(html, s.get(p));
                html.append("</tr>");
            }
        }
        html.append("</table>\n");

        html.append("<h2>Throughput</h2>\n");
        html.append("<table id=\"throughput-table\"><tr><th>group</th><th class=\"n\">tasks</th><th>by status</th><th class=\"n\">tasks/s</th>"
                + "<th class=\"n\">events/s</th><th class=\"n\">uncompressed MB/s</th><th class=\"n\">hashes/s</th></tr>");
        for (Map.Entry<String, Map<String, Object>> g : groups(report).entrySet()) {
            Map<String, Object> t = map(g.getValue(), "throughput");
            html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td>");
            num(html, g.getValue().get("tasks"));
            html.append("<td>").append(Html.escape(g.getValue().get("byStatus"))).append("</td>");
            num(html, t.get("tasksPerSecond"));
            num(html, t.get("eventsPerSecond"));
            num(html, t.get("uncompressedMBPerSecond"));
            num(html, t.get("hashesPerSecond"));
            html.append("</tr>");
        }
        html.append("</table>\n");

        html.append("<h2>Workers and DynamoDB writes</h2>\n");
        html.append("<table id=\"workers-table\"><tr><th>group</th><th class=\"n\">cold starts (share)</th><th class=\"n\">init p50 (ms)</th>"
                + "<th>threads seen</th><th>vCPU shares seen</th><th class=\"n\">write calls / task</th>"
                + "<th class=\"n\">mean write (ms)</th><th class=\"n\">slowest write (ms)</th></tr>");
        for (Map.Entry<String, Map<String, Object>> g : groups(report).entrySet()) {
            Map<String, Object> cold = map(g.getValue(), "coldStarts");
            Map<String, Object> dynamo = map(g.getValue(), "dynamoDb");
            Map<String, Object> workers = map(g.getValue(), "workers");
            html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td>");
            num(html, cold.get("tasks") + " (" + cold.get("share") + ")");
            num(html, map(cold, "initMs").get("p50"));
            html.append("<td>").append(Html.escape(workers.getOrDefault("threadsSeen", "–"))).append("</td><td>")
                    .append(Html.escape(workers.getOrDefault("vcpuSharesSeen", "–"))).append("</td>");
            num(html, dynamo.get("writeCallsPerTask"));
            num(html, dynamo.get("meanWriteMs"));
            num(html, dynamo.get("slowestWriteMs"));
            html.append("</tr>");
        }
        html.append("</table>\n");

        if (cost != null) costTables(html, cost);

        Map<String, Object> countBy = map(report, "countBy");
        if (!countBy.isEmpty()) {
            html.append("<h2>Events by field</h2>\n");
            countBy.forEach((path, values) -> {
                html.append("<table class=\"count-by\"><tr><th>").append(Html.escape(path)).append("</th><th class=\"n\">events</th></tr>");
                ((Map<String, Object>) values).forEach((value, n) -> {
                    html.append("<tr><td>").append(Html.escape(value)).append("</td>");
                    num(html, n);
                    html.append("</tr>");
                });
                html.append("</table>\n");
                String note = MarkdownReport.countByNote(report, path);
                if (note != null) html.append("<p class=\"note\">").append(Html.escape(note)).append("</p>\n");
            });
        }
        List<Map<String, Object>> problems = (List<Map<String, Object>>) report.get("problems");
        if (problems != null && !problems.isEmpty()) {
            html.append("<h2>Tasks that did not finish as done</h2>\n<table><tr><th>task</th><th>status</th><th>reason</th></tr>");
            for (Map<String, Object> p : problems) {
                html.append("<tr><td>").append(Html.escape(p.get("taskId"))).append("</td><td>").append(Html.escape(p.get("status")))
                        .append("</td><td>").append(Html.escape(p.get("reason"))).append("</td></tr>");
            }
            html.append("</table>\n");
        }
        html.append("<p class=\"note\">Every figure is in report.json with the inputs it came from; tasks.csv has one row per task."
                + " Formulas: docs/COST.md.</p>\n</body>\n</html>\n");
        return html.toString();
    }

    @SuppressWarnings("unchecked")
    private static void costTables(StringBuilder html, Map<String, Object> cost) {
        Map<String, Object> table = map(cost, "priceTable");
        Map<String, Object> durations = map(cost, "durations");
        html.append("<h2>Cost (").append(Html.escape(cost.get("currency"))).append(")</h2>\n");
        html.append("<p class=\"note\">Prices: ").append(Html.escape(table.get("region"))).append(", dated ")
                .append(Html.escape(table.get("date"))).append(" (").append(Html.escape(table.get("origin"))).append("). Lambda durations: ")
                .append(Html.escape(durations.get("REPORT line"))).append(" invocations billed from REPORT lines, ")
                .append(Html.escape(durations.get("task records"))).append(" measured from task records.");
        List<String> peaks = MarkdownReport.memoryPeaks(cost);
        if (!peaks.isEmpty()) html.append(" Max Memory Used (REPORT lines): ").append(Html.escape(String.join("; ", peaks))).append(".");
        html.append("</p>\n");
        html.append("<table id=\"cost-lines\"><tr><th>service</th><th>item</th><th class=\"n\">quantity</th><th>unit</th>"
                + "<th class=\"n\">unit price</th><th class=\"n\">cost</th><th>how</th></tr>");
        for (Map<String, Object> line : (List<Map<String, Object>>) cost.get("lines")) {
            html.append("<tr><td>").append(Html.escape(line.get("service"))).append("</td><td>").append(Html.escape(line.get("item"))).append("</td>");
            num(html, MarkdownReport.plain(line.get("quantity")));
            html.append("<td>").append(Html.escape(line.get("unit"))).append("</td>");
            num(html, MarkdownReport.plain(line.get("unitPrice")));
            num(html, MarkdownReport.plain(line.get("cost")));
            html.append("<td><code>").append(Html.escape(line.get("formula"))).append("</code></td></tr>");
        }
        html.append("<tr><th colspan=\"5\">total per run</th>");
        num(html, MarkdownReport.plain(cost.get("total")));
        html.append("<td>per million tasks: ").append(Html.escape(MarkdownReport.plain(cost.get("perMillionTasks")))).append("</td></tr></table>\n");

        html.append("<table id=\"cost-by-kind\"><tr><th>kind</th><th class=\"n\">tasks</th><th class=\"n\">share of task time</th>"
                + "<th class=\"n\">cost</th><th class=\"n\">per GB scanned</th><th class=\"n\">per thousand hashes</th></tr>");
        map(cost, "byKind").forEach((kind, value) -> {
            Map<String, Object> k = (Map<String, Object>) value;
            html.append("<tr><td>").append(Html.escape(kind)).append("</td>");
            num(html, k.get("tasks"));
            num(html, MarkdownReport.plain(k.get("share")));
            num(html, MarkdownReport.plain(k.get("cost")));
            num(html, MarkdownReport.plain(k.get("perGbScanned")));
            num(html, MarkdownReport.plain(k.get("perThousandHashes")));
            html.append("</tr>");
        });
        html.append("</table>\n");

        html.append("<h2>Cost by architecture</h2>\n<table id=\"cost-by-architecture\"><tr><th>architecture</th><th>basis</th>"
                + "<th class=\"n\">GB-s</th><th class=\"n\">Lambda compute</th><th class=\"n\">INIT</th><th class=\"n\">requests</th>"
                + "<th class=\"n\">other services</th><th class=\"n\">total per run</th><th class=\"n\">per million tasks</th><th>assumption</th></tr>");
        map(cost, "byArchitecture").forEach((architecture, value) -> {
            if (!(value instanceof Map<?, ?> m) || !m.containsKey("basis")) return;
            Map<String, Object> a = (Map<String, Object>) value;
            String basis = String.valueOf(a.get("basis"));
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td><td class=\"")
                    .append(basis.equals("measured") ? "measured" : "projected").append("\">").append(Html.escape(basis)).append("</td>");
            for (String field : List.of("gbSeconds", "lambdaCompute", "lambdaInit", "lambdaRequests", "otherServices", "total", "perMillionTasks")) {
                num(html, MarkdownReport.plain(a.get(field)));
            }
            html.append("<td>").append(Html.escape(a.getOrDefault("assumption", ""))).append("</td></tr>");
        });
        html.append("</table>\n");

        Map<String, Object> monthly = map(cost, "monthly");
        html.append("<h2>Monthly projection at ").append(Html.escape(monthly.get("runsPerMonth"))).append(" runs a month</h2>\n");
        html.append("<table id=\"monthly\"><tr><th>architecture</th><th class=\"n\">GB-s</th><th>GB-s by volume tier</th>"
                + "<th class=\"n\">Lambda compute</th><th class=\"n\">requests</th><th class=\"n\">other services</th><th class=\"n\">total</th></tr>");
        map(monthly, "byArchitecture").forEach((architecture, value) -> {
            Map<String, Object> m = (Map<String, Object>) value;
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td>");
            num(html, MarkdownReport.plain(m.get("gbSeconds")));
            html.append("<td>");
            for (Map<String, Object> tier : (List<Map<String, Object>>) m.get("tiers")) {
                html.append(Html.escape(MarkdownReport.plain(tier.get("gbSeconds")))).append(" GB-s at $")
                        .append(Html.escape(MarkdownReport.plain(tier.get("pricePerGbSecond")))).append("<br>");
            }
            html.append("</td>");
            for (String field : List.of("lambdaCompute", "lambdaRequests", "otherServices", "total")) num(html, MarkdownReport.plain(m.get(field)));
            html.append("</tr>");
        });
        html.append("</table>\n<p class=\"note\">Not included: ").append(Html.escape(String.join("; ", (List<String>) cost.get("notIncluded"))))
                .append(".</p>\n");
    }

    @SuppressWarnings("unchecked")
    static String latencyChart(Map<String, Object> report) {
        Map<String, Object> distribution = map(report, "distribution");
        List<Double> percentiles = SvgCharts.doubles((List<Object>) distribution.getOrDefault("percentiles", List.of()));
        List<SvgCharts.Curve> curves = new ArrayList<>();
        String[] names = {"task duration", "queue wait", "end to end"};
        for (int i = 0; i < MEASURES.size(); i++) {
            List<Double> values = SvgCharts.doubles((List<Object>) distribution.getOrDefault(MEASURES.get(i), List.of()));
            curves.add(new SvgCharts.Curve(names[i], SvgCharts.PALETTE[i], percentiles, values));
        }
        return SvgCharts.cdf("latency-cdf", "Latency distribution (CDF, nearest rank)", "milliseconds", curves);
    }

    @SuppressWarnings("unchecked")
    static String throughputChart(Map<String, Object> report) {
        Map<String, Object> timeline = map(report, "timeline");
        List<Map<String, Object>> buckets = (List<Map<String, Object>>) timeline.getOrDefault("buckets", List.of());
        List<String> categories = new ArrayList<>();
        List<Double> scan = new ArrayList<>(), hash = new ArrayList<>();
        for (Map<String, Object> b : buckets) {
            double seconds = ((Number) b.get("seconds")).doubleValue();
            categories.add(b.get("fromSecond") + " s");
            scan.add(((Number) b.get("scanTasks")).doubleValue() / seconds);
            hash.add(((Number) b.get("hashTasks")).doubleValue() / seconds);
        }
        return SvgCharts.stackedBars("throughput-over-time", "Throughput over time (tasks finished per second, "
                        + timeline.get("bucketSeconds") + " s buckets)", "seconds since the run was created", "tasks / s", categories,
                List.of(new SvgCharts.Series("scan tasks", SvgCharts.PALETTE[0], scan),
                        new SvgCharts.Series("hash tasks", SvgCharts.PALETTE[1], hash)));
    }

    @SuppressWarnings("unchecked")
    static String costChart(Map<String, Object> cost) {
        Map<String, Object> byArchitecture = map(cost, "byArchitecture");
        double sqs = number(map(cost, "sqs").get("cost"));
        double dynamo = number(map(cost, "dynamoDb").get("cost"));
        double s3 = number(map(cost, "s3").get("cost"));
        List<String> rows = new ArrayList<>();
        List<String> totals = new ArrayList<>();
        List<Double> compute = new ArrayList<>(), init = new ArrayList<>(), requests = new ArrayList<>();
        List<Double> sqsValues = new ArrayList<>(), dynamoValues = new ArrayList<>(), s3Values = new ArrayList<>();
        byArchitecture.forEach((architecture, value) -> {
            if (!(value instanceof Map<?, ?> m) || !m.containsKey("basis")) return;
            Map<String, Object> a = (Map<String, Object>) value;
            rows.add(architecture + " (" + a.get("basis") + ")");
            totals.add("$" + MarkdownReport.plain(a.get("total")));
            compute.add(number(a.get("lambdaCompute")));
            init.add(number(a.get("lambdaInit")));
            requests.add(number(a.get("lambdaRequests")));
            sqsValues.add(sqs);
            dynamoValues.add(dynamo);
            s3Values.add(s3);
        });
        return SvgCharts.horizontalStackedBars("cost-by-architecture-chart", "Cost of this run by architecture", "USD per run", rows,
                List.of(new SvgCharts.Series("Lambda compute", SvgCharts.PALETTE[0], compute),
                        new SvgCharts.Series("Lambda INIT", SvgCharts.PALETTE[3], init),
                        new SvgCharts.Series("Lambda requests", SvgCharts.PALETTE[5], requests),
                        new SvgCharts.Series("SQS", SvgCharts.PALETTE[1], sqsValues),
                        new SvgCharts.Series("DynamoDB", SvgCharts.PALETTE[2], dynamoValues),
                        new SvgCharts.Series("S3", SvgCharts.PALETTE[6], s3Values)), totals);
    }

    /** overall, then each kind, then each platform, labelled. */
    @SuppressWarnings("unchecked")
    static Map<String, Map<String, Object>> groups(Map<String, Object> report) {
        Map<String, Map<String, Object>> groups = new LinkedHashMap<>();
        groups.put("all", map(report, "overall"));
        map(report, "byKind").forEach((k, v) -> groups.put(k, (Map<String, Object>) v));
        map(report, "byPlatform").forEach((k, v) -> groups.put(k, (Map<String, Object>) v));
        return groups;
    }

    private static void card(StringBuilder html, String label, Object value) {
        html.append("<div class=\"card\"><div class=\"v\">").append(Html.escape(value)).append("</div><div class=\"k\">")
                .append(Html.escape(label)).append("</div></div>");
    }

    private static void num(StringBuilder html, Object value) {
        html.append("<td class=\"n\">").append(Html.escape(value == null ? "–" : value)).append("</td>");
    }

    private static double number(Object value) {
        return value instanceof Number n ? n.doubleValue() : 0;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> map(Map<String, Object> parent, String key) {
        return parent.get(key) instanceof Map<?, ?> m ? (Map<String, Object>) m : Map.of();
    }
}
