package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.cost.VolumeTiers;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.Json;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * report.html: one self-contained page (inline SVG and CSS, no script, no external load) with the
 * latency distribution, throughput over time, cost by architecture and the report's tables. It reads
 * only the typed report, so a report.json read back ({@link Report#fromJson}) renders the same page.
 */
public final class HtmlReport {
    static final List<String> MEASURES = RunFigures.Latency.MEASURES;
    static final List<String> PERCENTILES = List.of("p50", "p90", "p95", "p99", "p99.9", "max", "mean");

    private HtmlReport() {
    }

    public static String render(Report report) {
        RunFigures figures = report.figures();
        RunFigures.Group overall = figures.overall();
        RunFigures.Window window = figures.window();
        CostReport cost = report.cost();
        StringBuilder html = new StringBuilder(Html.head("Batchpipe run " + figures.runId()));
        html.append("<h1>Batchpipe run ").append(Html.escape(figures.runId())).append("</h1>\n");
        html.append("<p class=\"sub\">");
        if (figures.label() != null) html.append("Label <b>").append(Html.escape(figures.label())).append("</b> · ");
        html.append("status <b>").append(Html.escape(figures.status())).append("</b> · ").append(Html.escape(overall.tasks()))
                .append(" tasks ").append(Html.escape(overall.byStatus())).append(" in ").append(Html.escape(written(window.seconds())))
                .append(" s (").append(Html.escape(window.definition())).append(")</p>\n");
        if (window.planning() != null) {
            html.append("<p class=\"sub\">Planning ").append(Html.escape(written(window.planning().seconds()))).append(" s (")
                    .append(Html.escape(window.planning().definition())).append(")</p>\n");
        }
        if (figures.failureTolerance() != null) {
            RunFigures.FailureTolerance tolerance = figures.failureTolerance();
            html.append("<p class=\"sub\">Failures ").append(Html.escape(tolerance.failedTasks())).append(" of ")
                    .append(Html.escape(tolerance.plannedTasks())).append(" planned tasks (").append(Html.escape(written(tolerance.failedPercent())))
                    .append("%, failed or rejected) · tolerated ").append(Html.escape(tolerance.toleratedPercent())).append("% · <b>")
                    .append(tolerance.withinTolerance() ? "within tolerance" : "tolerance exceeded").append("</b></p>\n");
        }

        RunFigures.Throughput throughput = overall.throughput();
        Percentiles.Summary duration = overall.latency().taskDurationMs();
        html.append("<div class=\"cards\">");
        card(html, "tasks / s", written(throughput.tasksPerSecond()));
        card(html, "events / s", written(throughput.eventsPerSecond()));
        card(html, "uncompressed MB / s", written(throughput.uncompressedMBPerSecond()));
        card(html, "hashes / s", written(throughput.hashesPerSecond()));
        card(html, "task duration p50 / p99 (ms)", MarkdownReport.dash(duration.p50()) + " / " + MarkdownReport.dash(duration.p99()));
        if (cost != null) {
            card(html, "cost per run (" + cost.currency() + ")", MarkdownReport.plain(cost.total()));
            card(html, "cost per million tasks", MarkdownReport.plain(cost.perMillionTasks()));
        }
        html.append("</div>\n");

        html.append("<h2>Charts</h2>\n<div class=\"charts\">\n");
        html.append(latencyChart(figures)).append('\n');
        html.append(throughputChart(figures)).append('\n');
        if (cost != null) html.append(costChart(cost)).append('\n');
        html.append("</div>\n");

        html.append("<h2>Latency percentiles (ms, nearest rank)</h2>\n");
        html.append("<table id=\"latency-table\"><tr><th>group</th><th>measure</th><th class=\"n\">n</th>");
        for (String p : PERCENTILES) html.append("<th class=\"n\">").append(p).append("</th>");
        html.append("</tr>");
        for (Map.Entry<String, RunFigures.Group> g : groups(figures).entrySet()) {
            for (Map.Entry<String, Percentiles.Summary> measure : g.getValue().latency().byMeasure().entrySet()) {
                Percentiles.Summary s = measure.getValue();
                html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td><td>").append(measure.getKey()).append("</td>");
                num(html, s.count());
                for (String p : PERCENTILES) {
                    if (p.equals("mean")) num(html, written(s.mean()));
                    else num(html, s.at(p));
                }
                html.append("</tr>");
            }
        }
        html.append("</table>\n");
        if (figures.latencyDefinitions() != null) {
            RunFigures.LatencyDefinitions d = figures.latencyDefinitions();
            html.append("<p class=\"sub\">taskDurationMs: ").append(Html.escape(d.taskDurationMs()))
                    .append(" · queueWaitMs: ").append(Html.escape(d.queueWaitMs()))
                    .append(" · endToEndMs: ").append(Html.escape(d.endToEndMs())).append("</p>\n");
        }

        html.append("<h2>Throughput</h2>\n");
        html.append("<table id=\"throughput-table\"><tr><th>group</th><th class=\"n\">tasks</th><th>by status</th><th class=\"n\">tasks/s</th>"
                + "<th class=\"n\">events/s</th><th class=\"n\">uncompressed MB/s</th><th class=\"n\">hashes/s</th></tr>");
        for (Map.Entry<String, RunFigures.Group> g : groups(figures).entrySet()) {
            RunFigures.Throughput t = g.getValue().throughput();
            html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td>");
            num(html, g.getValue().tasks());
            html.append("<td>").append(Html.escape(g.getValue().byStatus())).append("</td>");
            num(html, written(t.tasksPerSecond()));
            num(html, written(t.eventsPerSecond()));
            num(html, written(t.uncompressedMBPerSecond()));
            num(html, written(t.hashesPerSecond()));
            html.append("</tr>");
        }
        html.append("</table>\n");

        if (figures.dynamoDbCalls() != null) {
            RunFigures.DynamoDbCalls calls = figures.dynamoDbCalls();
            html.append("<h2>DynamoDB calls from the workers (ms, nearest rank)</h2>\n");
            html.append("<table id=\"dynamodb-calls-table\"><tr><th>call</th><th class=\"n\">count</th><th class=\"n\">p50</th>"
                    + "<th class=\"n\">p99</th><th class=\"n\">max</th></tr>");
            calls.byCall().forEach((call, c) -> {
                html.append("<tr><td>").append(Html.escape(call)).append("</td>");
                num(html, c.count());
                num(html, written(c.p50Ms()));
                num(html, written(c.p99Ms()));
                num(html, written(c.maxMs()));
                html.append("</tr>");
            });
            html.append("</table>\n<p class=\"sub\">").append(Html.escape(calls.definition())).append("</p>\n");
        }

        html.append("<h2>Workers and DynamoDB writes</h2>\n");
        html.append("<table id=\"workers-table\"><tr><th>group</th><th class=\"n\">cold starts (share)</th><th class=\"n\">init p50 (ms)</th>"
                + "<th>threads seen</th><th>vCPU shares seen</th><th class=\"n\">write calls / task</th>"
                + "<th class=\"n\">mean write (ms)</th><th class=\"n\">slowest write (ms)</th></tr>");
        for (Map.Entry<String, RunFigures.Group> g : groups(figures).entrySet()) {
            RunFigures.ColdStarts cold = g.getValue().coldStarts();
            RunFigures.DynamoDbWrites dynamo = g.getValue().dynamoDb();
            RunFigures.Workers workers = g.getValue().workers();
            html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td>");
            num(html, (cold.perInvocation() ? cold.coldInvocations() + "/" + cold.invocations() : String.valueOf(cold.tasks()))
                    + " (" + written(cold.share()) + ")");
            num(html, cold.initMs().p50());
            html.append("<td>").append(Html.escape(written(workers.threadsSeen()))).append("</td><td>")
                    .append(Html.escape(written(workers.vcpuSharesSeen()))).append("</td>");
            num(html, written(dynamo.writeCallsPerTask()));
            num(html, written(dynamo.meanWriteMs()));
            num(html, written(dynamo.slowestWriteMs()));
            html.append("</tr>");
        }
        html.append("</table>\n");

        if (cost != null) costTables(html, cost);

        if (!figures.countBy().isEmpty()) {
            html.append("<h2>Events by field</h2>\n");
            figures.countBy().forEach((path, values) -> {
                html.append("<table class=\"count-by\"><tr><th>").append(Html.escape(path)).append("</th><th class=\"n\">events</th></tr>");
                values.forEach((value, n) -> {
                    html.append("<tr><td>").append(Html.escape(value)).append("</td>");
                    num(html, n);
                    html.append("</tr>");
                });
                html.append("</table>\n");
                String note = MarkdownReport.countByNote(figures, path);
                if (note != null) html.append("<p class=\"note\">").append(Html.escape(note)).append("</p>\n");
            });
        }
        if (!figures.problems().isEmpty()) {
            html.append("<h2>Tasks that did not finish as done</h2>\n<table><tr><th>task</th><th>status</th><th>reason</th></tr>");
            for (RunFigures.Problem p : figures.problems()) {
                html.append("<tr><td>").append(Html.escape(p.taskId())).append("</td><td>").append(Html.escape(p.status()))
                        .append("</td><td>").append(Html.escape(p.reason())).append("</td></tr>");
            }
            html.append("</table>\n");
        }
        html.append("<p class=\"note\">Every figure is in report.json with the inputs it came from; tasks.csv has one row per task."
                + " Formulas: docs/COST.md.</p>\n</body>\n</html>\n");
        return html.toString();
    }

    private static void costTables(StringBuilder html, CostReport cost) {
        CostReport.Prices table = cost.priceTable();
        CostReport.InvocationSources durations = cost.durations().invocations();
        html.append("<h2>Cost (").append(Html.escape(cost.currency())).append(")</h2>\n");
        html.append("<p class=\"note\">Prices: ").append(Html.escape(table.region())).append(", dated ")
                .append(Html.escape(table.date())).append(" (").append(Html.escape(table.origin())).append("). Lambda durations: ")
                .append(Html.escape(durations.fromReportLines())).append(" invocations billed from REPORT lines, ")
                .append(Html.escape(durations.fromTaskRecords())).append(" measured from task records.");
        List<String> peaks = MarkdownReport.memoryPeaks(cost);
        if (!peaks.isEmpty()) html.append(" Max Memory Used (REPORT lines): ").append(Html.escape(String.join("; ", peaks))).append(".");
        html.append("</p>\n");
        html.append("<table id=\"cost-lines\"><tr><th>service</th><th>item</th><th class=\"n\">quantity</th><th>unit</th>"
                + "<th class=\"n\">unit price</th><th class=\"n\">cost</th><th>how</th></tr>");
        for (CostReport.Line line : cost.lines()) {
            html.append("<tr><td>").append(Html.escape(line.service())).append("</td><td>").append(Html.escape(line.item())).append("</td>");
            num(html, MarkdownReport.plain(line.quantity()));
            html.append("<td>").append(Html.escape(line.unit())).append("</td>");
            num(html, MarkdownReport.plain(line.unitPrice()));
            num(html, MarkdownReport.plain(line.cost()));
            html.append("<td><code>").append(Html.escape(line.formula())).append("</code></td></tr>");
        }
        html.append("<tr><th colspan=\"5\">total per run</th>");
        num(html, MarkdownReport.plain(cost.total()));
        html.append("<td>per million tasks: ").append(Html.escape(MarkdownReport.plain(cost.perMillionTasks()))).append("</td></tr></table>\n");

        html.append("<table id=\"cost-by-kind\"><tr><th>kind</th><th class=\"n\">tasks</th><th class=\"n\">share of task time</th>"
                + "<th class=\"n\">cost</th><th class=\"n\">per GB scanned</th><th class=\"n\">per thousand hashes</th></tr>");
        cost.byKind().forEach((kind, k) -> {
            html.append("<tr><td>").append(Html.escape(kind)).append("</td>");
            num(html, k.tasks());
            num(html, MarkdownReport.plain(k.share()));
            num(html, MarkdownReport.plain(k.cost()));
            num(html, MarkdownReport.plain(k.perGbScanned()));
            num(html, MarkdownReport.plain(k.perThousandHashes()));
            html.append("</tr>");
        });
        html.append("</table>\n");

        html.append("<h2>Cost by architecture</h2>\n<table id=\"cost-by-architecture\"><tr><th>architecture</th><th>basis</th>"
                + "<th class=\"n\">GB-s</th><th class=\"n\">Lambda compute</th><th class=\"n\">" + MarkdownReport.initColumn(cost)
                + "</th><th class=\"n\">requests</th>"
                + "<th class=\"n\">other services</th><th class=\"n\">total per run</th><th class=\"n\">per million tasks</th><th>assumption</th></tr>");
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td><td class=\"")
                    .append(a.basis().equals("measured") ? "measured" : "projected").append("\">").append(Html.escape(a.basis())).append("</td>");
            for (java.math.BigDecimal figure : java.util.Arrays.asList(a.gbSeconds(), a.lambdaCompute(), a.lambdaInit(), a.lambdaRequests(),
                    a.otherServices(), a.total(), a.perMillionTasks())) {
                num(html, MarkdownReport.plain(figure));
            }
            html.append("<td>").append(Html.escape(a.assumption() == null ? "" : a.assumption())).append("</td></tr>");
        });
        html.append("</table>\n");

        CostReport.Monthly monthly = cost.monthly();
        html.append("<h2>Monthly projection at ").append(Html.escape(monthly.runsPerMonth())).append(" runs a month</h2>\n");
        html.append("<table id=\"monthly\"><tr><th>architecture</th><th class=\"n\">GB-s</th><th>GB-s by volume tier</th>"
                + "<th class=\"n\">Lambda compute</th><th class=\"n\">requests</th><th class=\"n\">other services</th><th class=\"n\">total</th></tr>");
        monthly.byArchitecture().forEach((architecture, m) -> {
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td>");
            num(html, MarkdownReport.plain(m.gbSeconds()));
            html.append("<td>");
            for (VolumeTiers.TierUse tier : m.tiers()) {
                html.append(Html.escape(MarkdownReport.plain(tier.writtenGbSeconds()))).append(" GB-s at $")
                        .append(Html.escape(MarkdownReport.plain(tier.price()))).append("<br>");
            }
            html.append("</td>");
            for (java.math.BigDecimal figure : List.of(m.lambdaCompute(), m.lambdaRequests(), m.otherServices(), m.total())) {
                num(html, MarkdownReport.plain(figure));
            }
            html.append("</tr>");
        });
        html.append("</table>\n<p class=\"note\">Not included: ").append(Html.escape(String.join("; ", cost.notIncluded())))
                .append(".</p>\n");
    }

    static String latencyChart(RunFigures figures) {
        RunFigures.LatencyDistribution distribution = figures.distribution();
        List<Double> percentiles = distribution.percentiles();
        List<SvgCharts.Curve> curves = new ArrayList<>();
        String[] names = {"task duration", "queue wait", "end to end"};
        List<List<Long>> measures = distribution.byMeasure();
        for (int i = 0; i < measures.size(); i++) {
            curves.add(new SvgCharts.Curve(names[i], SvgCharts.PALETTE[i], percentiles, SvgCharts.doubles(measures.get(i))));
        }
        return SvgCharts.cdf("latency-cdf", "Latency distribution (CDF, nearest rank)", "milliseconds", curves);
    }

    static String throughputChart(RunFigures figures) {
        RunFigures.TimelineFigures timeline = figures.timeline();
        List<String> categories = new ArrayList<>();
        List<Double> scan = new ArrayList<>(), hash = new ArrayList<>();
        for (RunFigures.Bucket b : timeline.buckets()) {
            categories.add(b.fromSecond() + " s");
            scan.add(b.scanTasks() / b.seconds());
            hash.add(b.hashTasks() / b.seconds());
        }
        return SvgCharts.stackedBars("throughput-over-time", "Throughput over time (tasks finished per second, "
                        + timeline.bucketSeconds() + " s buckets)", "seconds since the run was created", "tasks / s", categories,
                List.of(new SvgCharts.Series("scan tasks", SvgCharts.PALETTE[0], scan),
                        new SvgCharts.Series("hash tasks", SvgCharts.PALETTE[1], hash)));
    }

    static String costChart(CostReport cost) {
        double sqs = cost.sqs().cost().doubleValue();
        double dynamo = cost.dynamoDb().cost().doubleValue();
        double s3 = cost.s3().cost().doubleValue();
        List<String> rows = new ArrayList<>();
        List<String> totals = new ArrayList<>();
        List<Double> compute = new ArrayList<>(), init = new ArrayList<>(), requests = new ArrayList<>();
        List<Double> sqsValues = new ArrayList<>(), dynamoValues = new ArrayList<>(), s3Values = new ArrayList<>();
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            rows.add(architecture + " (" + a.basis() + ")");
            totals.add("$" + MarkdownReport.plain(a.total()));
            // Since INIT is read as part of billed time, compute holds it: the bar shows the rest beside it, never it twice.
            compute.add(a.lambdaCompute().doubleValue() - (cost.lambda().initInCompute() ? a.lambdaInit().doubleValue() : 0));
            init.add(a.lambdaInit().doubleValue());
            requests.add(a.lambdaRequests().doubleValue());
            sqsValues.add(sqs);
            dynamoValues.add(dynamo);
            s3Values.add(s3);
        });
        return SvgCharts.horizontalStackedBars("cost-by-architecture-chart", "Cost of this run by architecture", "USD per run", rows,
                List.of(new SvgCharts.Series(cost.lambda().initInCompute() ? "Lambda compute after INIT" : "Lambda compute",
                                SvgCharts.PALETTE[0], compute),
                        new SvgCharts.Series("Lambda INIT", SvgCharts.PALETTE[3], init),
                        new SvgCharts.Series("Lambda requests", SvgCharts.PALETTE[5], requests),
                        new SvgCharts.Series("SQS", SvgCharts.PALETTE[1], sqsValues),
                        new SvgCharts.Series("DynamoDB", SvgCharts.PALETTE[2], dynamoValues),
                        new SvgCharts.Series("S3", SvgCharts.PALETTE[6], s3Values)), totals);
    }

    /** overall, then each kind, then each platform, labelled. */
    static Map<String, RunFigures.Group> groups(RunFigures figures) {
        Map<String, RunFigures.Group> groups = new LinkedHashMap<>();
        groups.put("all", figures.overall());
        groups.putAll(figures.byKind());
        groups.putAll(figures.byPlatform());
        return groups;
    }

    /**
     * A figure as report.json writes it (1.0 as 1, 0.5 as 0.5), so that the page shows the same text as
     * the file: JSON's number form, read back.
     */
    static Object written(Object figure) {
        return Json.parse(Json.write(figure));
    }

    private static void card(StringBuilder html, String label, Object value) {
        html.append("<div class=\"card\"><div class=\"v\">").append(Html.escape(value)).append("</div><div class=\"k\">")
                .append(Html.escape(label)).append("</div></div>");
    }

    private static void num(StringBuilder html, Object value) {
        html.append("<td class=\"n\">").append(Html.escape(value == null ? "–" : value)).append("</td>");
    }
}
