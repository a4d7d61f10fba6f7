package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.cost.VolumeTiers;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.Json;
import batchpipe.report.Display;
import batchpipe.report.Html;
import batchpipe.report.SvgCharts;

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
    public static final List<String> MEASURES = RunFigures.Latency.MEASURES;
    public static final List<String> PERCENTILES = List.of("p50", "p90", "p95", "p99", "p99.9", "max", "mean");

    private HtmlReport() {
    }

    public static String render(Report report) {
        RunFigures figures = report.figures();
        RunFigures.Group overall = figures.overall();
        RunFigures.Window window = figures.window();
        CostReport cost = report.cost();
        StringBuilder html = new StringBuilder(Html.head("Batchpipe run " + figures.runId()));
        html.append("<h1>Batchpipe run ").append(Html.escape(figures.runId())).append("</h1>\n");
        if (figures.host() != null) {
            html.append("<p class=\"local-run\" id=\"local-run\">").append(Html.escape(MarkdownReport.hostSentence(figures.host()))).append("</p>\n");
        }
        html.append("<p class=\"sub\">");
        if (figures.label() != null) html.append("Label <b>").append(Html.escape(figures.label())).append("</b> · ");
        html.append("status <b>").append(Html.escape(figures.status())).append("</b> · ").append(Html.escape(Display.count(overall.tasks())))
                .append(" tasks ").append(Html.escape(overall.byStatus())).append(" in ").append(Html.escape(Display.seconds(window.seconds())))
                .append(" (").append(Html.escape(window.definition())).append(")</p>\n");
        if (window.planning() != null) {
            html.append("<p class=\"sub\">Planning ").append(Html.escape(Display.seconds(window.planning().seconds()))).append(" (")
                    .append(Html.escape(window.planning().definition())).append(")</p>\n");
        }
        if (figures.failureTolerance() != null) {
            RunFigures.FailureTolerance tolerance = figures.failureTolerance();
            html.append("<p class=\"sub\">Failures ").append(Html.escape(Display.count(tolerance.failedTasks()))).append(" of ")
                    .append(Html.escape(Display.count(tolerance.plannedTasks()))).append(" planned tasks (")
                    .append(Html.escape(Display.percent(java.math.BigDecimal.valueOf(tolerance.failedPercent()))))
                    .append(", failed or rejected) · tolerated ").append(Html.escape(tolerance.toleratedPercent())).append("% · <b>")
                    .append(tolerance.withinTolerance() ? "within tolerance" : "tolerance exceeded").append("</b></p>\n");
        }

        RunFigures.Throughput throughput = overall.throughput();
        Percentiles.Summary duration = overall.latency().taskDurationMs();
        html.append("<div class=\"cards\">");
        card(html, "tasks / s", Display.rate(throughput.tasksPerSecond()));
        card(html, "events / s", Display.rate(throughput.eventsPerSecond()));
        card(html, "uncompressed MB / s", Display.rate(throughput.uncompressedMBPerSecond()));
        card(html, "hashes / s", Display.rate(throughput.hashesPerSecond()));
        card(html, "task duration p50 / p99", MarkdownReport.percentile(duration, "p50") + " / " + MarkdownReport.percentile(duration, "p99"));
        if (cost != null) {
            card(html, "cost per run (" + cost.currency() + ")", Display.usd(cost.total()));
            card(html, "cost per million tasks", Display.usd(cost.perMillionTasks()));
        }
        html.append("</div>\n");

        html.append("<h2>Charts</h2>\n<div class=\"charts\">\n");
        html.append(latencyCharts(figures)).append('\n');
        html.append(throughputChart(figures)).append('\n');
        if (cost != null) html.append(costChart(cost)).append('\n');
        html.append("</div>\n");

        html.append("<h2>Latency percentiles (nearest rank)</h2>\n");
        html.append("<table id=\"latency-table\"><tr><th>group</th><th>measure</th><th class=\"n\">n</th>");
        for (String p : PERCENTILES) html.append("<th class=\"n\">").append(p).append("</th>");
        html.append("</tr>");
        for (Map.Entry<String, RunFigures.Group> g : groups(figures).entrySet()) {
            for (Map.Entry<String, Percentiles.Summary> measure : g.getValue().latency().byMeasure().entrySet()) {
                Percentiles.Summary s = measure.getValue();
                html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td><td>").append(measure.getKey()).append("</td>");
                num(html, Display.count(s.count()));
                for (String p : PERCENTILES) {
                    if (p.equals("mean")) num(html, s.mean() == null ? Display.NONE : Display.duration(s.mean()));
                    else num(html, MarkdownReport.percentile(s, p));
                }
                html.append("</tr>");
            }
        }
        html.append("</table>\n");
        if (MarkdownReport.anySmallSample(figures)) html.append("<p class=\"note\">").append(Html.escape(MarkdownReport.SMALL_SAMPLE_NOTE)).append("</p>\n");
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
            num(html, Display.count(g.getValue().tasks()));
            html.append("<td>").append(Html.escape(g.getValue().byStatus())).append("</td>");
            num(html, Display.rate(t.tasksPerSecond()));
            num(html, Display.rate(t.eventsPerSecond()));
            num(html, Display.rate(t.uncompressedMBPerSecond()));
            num(html, Display.rate(t.hashesPerSecond()));
            html.append("</tr>");
        }
        html.append("</table>\n");

        if (figures.dynamoDbCalls() != null) {
            RunFigures.DynamoDbCalls calls = figures.dynamoDbCalls();
            html.append("<h2>DynamoDB calls from the workers (nearest rank)</h2>\n");
            html.append("<table id=\"dynamodb-calls-table\"><tr><th>call</th><th class=\"n\">count</th><th class=\"n\">p50</th>"
                    + "<th class=\"n\">p99</th><th class=\"n\">max</th></tr>");
            calls.byCall().forEach((call, c) -> {
                html.append("<tr><td>").append(Html.escape(call)).append("</td>");
                num(html, Display.count(c.count()));
                num(html, Display.duration(c.p50Ms()));
                num(html, Display.duration(c.p99Ms()) + (MarkdownReport.tooSmallFor("p99", c.count()) ? MarkdownReport.SMALL_SAMPLE_MARK : ""));
                num(html, Display.duration(c.maxMs()));
                html.append("</tr>");
            });
            html.append("</table>\n<p class=\"sub\">").append(Html.escape(calls.definition())).append("</p>\n");
        }

        html.append("<h2>Workers and DynamoDB writes</h2>\n");
        html.append("<table id=\"workers-table\"><tr><th>group</th><th class=\"n\">cold starts (share)</th><th class=\"n\">init p50</th>"
                + "<th>threads seen</th><th>vCPU shares seen</th><th class=\"n\">write calls / task</th>"
                + "<th class=\"n\">mean write</th><th class=\"n\">slowest write</th></tr>");
        for (Map.Entry<String, RunFigures.Group> g : groups(figures).entrySet()) {
            RunFigures.ColdStarts cold = g.getValue().coldStarts();
            RunFigures.DynamoDbWrites dynamo = g.getValue().dynamoDb();
            RunFigures.Workers workers = g.getValue().workers();
            html.append("<tr><td>").append(Html.escape(g.getKey())).append("</td>");
            num(html, MarkdownReport.coldStartCell(cold));
            num(html, MarkdownReport.percentile(cold.initMs(), "p50"));
            html.append("<td>").append(Html.escape(written(workers.threadsSeen()))).append("</td><td>")
                    .append(Html.escape(written(workers.vcpuSharesSeen()))).append("</td>");
            num(html, Display.rate(dynamo.writeCallsPerTask()));
            num(html, Display.duration(dynamo.meanWriteMs()));
            num(html, Display.duration(dynamo.slowestWriteMs()));
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
                    num(html, Display.count(n));
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
        html.append("<p class=\"note\">Every figure is in report.json at full precision with the inputs it came from; tasks.csv has one"
                + " row per task and countby.csv one row per task, countBy path and value. Formulas: docs/COST.md.</p>\n</body>\n</html>\n");
        return html.toString();
    }

    private static void costTables(StringBuilder html, CostReport cost) {
        CostReport.Prices table = cost.priceTable();
        CostReport.InvocationSources durations = cost.durations().invocations();
        html.append("<h2>Cost (").append(Html.escape(cost.currency())).append(")</h2>\n");
        html.append("<p class=\"note\">Prices: ").append(Html.escape(table.region())).append(", dated ")
                .append(Html.escape(table.date())).append(" (").append(Html.escape(table.origin())).append("). Lambda durations: ")
                .append(Html.escape(Display.count(durations.fromReportLines()))).append(" invocations billed from REPORT lines, ")
                .append(Html.escape(Display.count(durations.fromTaskRecords()))).append(" measured from task records.");
        List<String> peaks = MarkdownReport.memoryPeaks(cost);
        if (!peaks.isEmpty()) html.append(" Max Memory Used (REPORT lines): ").append(Html.escape(String.join("; ", peaks))).append(".");
        html.append("</p>\n");
        html.append("<table id=\"cost-lines\"><tr><th>service</th><th>item</th><th class=\"n\">quantity</th><th>unit</th>"
                + "<th class=\"n\">unit price</th><th class=\"n\">cost</th><th>how</th></tr>");
        for (CostReport.Line line : cost.lines()) {
            html.append("<tr><td>").append(Html.escape(line.service())).append("</td><td>").append(Html.escape(line.item())).append("</td>");
            num(html, MarkdownReport.quantity(line));
            html.append("<td>").append(Html.escape(line.unit())).append("</td>");
            num(html, MarkdownReport.unitPrice(line.unitPrice()));
            num(html, Display.usd(line.cost()));
            html.append("<td><code>").append(Html.escape(line.formula())).append("</code></td></tr>");
        }
        html.append("<tr><th colspan=\"5\">total per run</th>");
        num(html, Display.usd(cost.total()));
        html.append("<td>per million tasks: ").append(Html.escape(Display.usd(cost.perMillionTasks()))).append("</td></tr></table>\n");

        html.append("<table id=\"cost-by-kind\"><tr><th>kind</th><th class=\"n\">tasks</th><th class=\"n\">share of task time</th>"
                + "<th class=\"n\">cost</th><th class=\"n\">per GB scanned</th><th class=\"n\">per thousand hashes</th></tr>");
        cost.byKind().forEach((kind, k) -> {
            html.append("<tr><td>").append(Html.escape(kind)).append("</td>");
            num(html, Display.count(k.tasks()));
            num(html, Display.share(k.share()));
            num(html, Display.usd(k.cost()));
            num(html, Display.usd(k.perGbScanned()));
            num(html, Display.usd(k.perThousandHashes()));
            html.append("</tr>");
        });
        html.append("</table>\n");

        // No assumption column: its sentence made the table wider than the page; it is a list under the table,
        // and a projected figure says so in its own cell.
        html.append("<h2>Cost by architecture</h2>\n<table id=\"cost-by-architecture\"><tr><th>architecture</th><th>basis</th>"
                + "<th class=\"n\">GB-s</th><th class=\"n\">Lambda compute</th><th class=\"n\">" + MarkdownReport.initColumn(cost)
                + "</th><th class=\"n\">requests</th>"
                + "<th class=\"n\">other services</th><th class=\"n\">total per run</th><th class=\"n\">per million tasks</th></tr>");
        List<String> assumptions = new ArrayList<>();
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td><td class=\"")
                    .append(a.basis().equals("measured") ? "measured" : "projected").append("\">").append(Html.escape(a.basis())).append("</td>");
            num(html, Display.gbSeconds(a.gbSeconds()));
            for (java.math.BigDecimal figure : java.util.Arrays.asList(a.lambdaCompute(), a.lambdaInit(), a.lambdaRequests(), a.otherServices())) {
                num(html, Display.usd(figure));
            }
            projectedNum(html, a.total(), a);
            projectedNum(html, a.perMillionTasks(), a);
            html.append("</tr>");
            if (a.assumption() != null) assumptions.add(architecture + ": " + a.assumption());
        });
        html.append("</table>\n");
        if (!assumptions.isEmpty()) {
            html.append("<ul class=\"note\" id=\"projection-assumptions\">");
            for (String assumption : assumptions) html.append("<li>").append(Html.escape(assumption)).append("</li>");
            html.append("</ul>\n");
        }
        String projectionNote = MarkdownReport.projectionNote(cost);
        if (projectionNote != null) html.append("<p class=\"note\" id=\"projection-note\">").append(Html.escape(projectionNote)).append("</p>\n");

        CostReport.Monthly monthly = cost.monthly();
        html.append("<h2>Monthly projection at ").append(Html.escape(Display.count(monthly.runsPerMonth()))).append(" runs a month</h2>\n");
        html.append("<table id=\"monthly\"><tr><th>architecture</th><th class=\"n\">GB-s</th><th>GB-s by volume tier</th>"
                + "<th class=\"n\">Lambda compute</th><th class=\"n\">requests</th><th class=\"n\">other services</th><th class=\"n\">total</th></tr>");
        monthly.byArchitecture().forEach((architecture, m) -> {
            html.append("<tr><td>").append(Html.escape(architecture)).append("</td>");
            num(html, Display.gbSeconds(m.gbSeconds()));
            html.append("<td>");
            for (VolumeTiers.TierUse tier : m.tiers()) {
                html.append(Html.escape(Display.gbSeconds(tier.writtenGbSeconds()))).append(" GB-s at ")
                        .append(Html.escape(MarkdownReport.unitPrice(tier.price()))).append("<br>");
            }
            html.append("</td>");
            for (java.math.BigDecimal figure : List.of(m.lambdaCompute(), m.lambdaRequests(), m.otherServices(), m.total())) {
                num(html, Display.usd(figure));
            }
            html.append("</tr>");
        });
        html.append("</table>\n<p class=\"note\">Not included: ").append(Html.escape(String.join("; ", cost.notIncluded())))
                .append(".</p>\n");
    }

    /** A cost cell of a projected scenario: the amount, and under it what the projection assumed. */
    private static void projectedNum(StringBuilder html, java.math.BigDecimal amount, CostReport.Scenario scenario) {
        String projection = MarkdownReport.projection(scenario);
        html.append("<td class=\"n\">").append(Html.escape(Display.usd(amount)));
        if (projection != null) html.append("<br><span class=\"projected-note\">").append(Html.escape(projection)).append("</span>");
        html.append("</td>");
    }

    /**
     * The latency CDF on a linear and on a logarithmic millisecond axis, one shown at a time by two radio
     * buttons and CSS alone (the page allows no script): a long tail squeezes the linear one against the left.
     */
    static String latencyCharts(RunFigures figures) {
        return "<div class=\"scale-toggle\"><input type=\"radio\" name=\"cdf-scale\" id=\"cdf-scale-linear\" checked>"
                + "<label for=\"cdf-scale-linear\">linear milliseconds</label> <input type=\"radio\" name=\"cdf-scale\" id=\"cdf-scale-log\">"
                + "<label for=\"cdf-scale-log\">log scale</label>\n<div class=\"cdf-linear\">" + latencyChart(figures, false)
                + "</div>\n<div class=\"cdf-log\">" + latencyChart(figures, true) + "</div></div>";
    }

    static String latencyChart(RunFigures figures) {
        return latencyChart(figures, false);
    }

    static String latencyChart(RunFigures figures, boolean logScale) {
        RunFigures.LatencyDistribution distribution = figures.distribution();
        List<Double> percentiles = distribution.percentiles();
        List<SvgCharts.Curve> curves = new ArrayList<>();
        String[] names = {"task duration", "queue wait", "end to end"};
        List<List<Long>> measures = distribution.byMeasure();
        for (int i = 0; i < measures.size(); i++) {
            curves.add(new SvgCharts.Curve(names[i], SvgCharts.PALETTE[i], percentiles, SvgCharts.doubles(measures.get(i))));
        }
        return logScale
                ? SvgCharts.cdf("latency-cdf-log", "Latency distribution (CDF, nearest rank, log scale)", "milliseconds (log scale)", curves, true)
                : SvgCharts.cdf("latency-cdf", "Latency distribution (CDF, nearest rank)", "milliseconds", curves, false);
    }

    static String throughputChart(RunFigures figures) {
        RunFigures.TimelineFigures timeline = figures.timeline();
        List<String> categories = new ArrayList<>();
        List<Double> scan = new ArrayList<>(), hash = new ArrayList<>();
        // Counts, not rates: a last bucket cut short by the run's end (41 ms in one demo) would turn one task into
        // the tallest bar as a rate; as a count it is one task, and its label says how long it lasted.
        List<RunFigures.Bucket> buckets = timeline.buckets();
        for (int i = 0; i < buckets.size(); i++) {
            RunFigures.Bucket b = buckets.get(i);
            boolean partial = i == buckets.size() - 1 && b.seconds() < timeline.bucketSeconds();
            categories.add(b.fromSecond() + " s" + (partial ? " (" + Display.seconds(b.seconds()) + ")" : ""));
            scan.add((double) b.scanTasks());
            hash.add((double) b.hashTasks());
        }
        return SvgCharts.stackedBars("throughput-over-time", "Tasks finished per " + timeline.bucketSeconds() + " s bucket"
                        + (lastBucketPartial(timeline) ? " (the last bucket is shorter: the run ended in it)" : ""),
                "seconds since the run was created", "tasks finished", categories,
                List.of(new SvgCharts.Series("scan tasks", SvgCharts.PALETTE[0], scan),
                        new SvgCharts.Series("hash tasks", SvgCharts.PALETTE[1], hash)),
                planningBand(figures));
    }

    /** The planning phase (run created to last task sent) shaded on the timeline, in its buckets; null when not known. */
    static SvgCharts.Band planningBand(RunFigures figures) {
        RunFigures.Phase planning = figures.window().planning();
        RunFigures.TimelineFigures timeline = figures.timeline();
        if (planning == null || timeline.bucketSeconds() <= 0) return null;
        double bucketMs = timeline.bucketSeconds() * 1000.0;
        return new SvgCharts.Band((planning.start() - timeline.start()) / bucketMs, (planning.end() - timeline.start()) / bucketMs,
                "planning " + Display.seconds(planning.seconds()));
    }

    private static boolean lastBucketPartial(RunFigures.TimelineFigures timeline) {
        List<RunFigures.Bucket> buckets = timeline.buckets();
        return !buckets.isEmpty() && buckets.get(buckets.size() - 1).seconds() < timeline.bucketSeconds();
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
            String projection = MarkdownReport.projection(a);
            rows.add(architecture + " (" + (projection == null ? a.basis() : projection.replace("assuming ", "")) + ")");
            totals.add(Display.usd(a.total()));
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
