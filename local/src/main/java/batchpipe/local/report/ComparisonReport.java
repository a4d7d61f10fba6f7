package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.report.HtmlReport;
import batchpipe.aggregator.report.MarkdownReport;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.report.Display;
import batchpipe.report.Html;
import batchpipe.report.MarkdownText;
import batchpipe.report.SvgCharts;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * Two runs side by side (arm64 against x86_64, two memory sizes, two code versions): percentiles,
 * throughput and cost of each, the difference B − A and the ratio B ÷ A, as Markdown and as an HTML
 * page. It reads two reports only, so it compares runs from files as well as from a table.
 */
public final class ComparisonReport {
    private static final MathContext RATIO = new MathContext(4, RoundingMode.HALF_EVEN);

    /** One compared figure; {@code delta} and {@code ratio} are null when a side is not a number (or A is 0 for the ratio). */
    public record Row(String section, String metric, Object a, Object b, BigDecimal delta, BigDecimal ratio) {
    }

    private ComparisonReport() {
    }

    public static List<Row> rows(Report a, Report b) {
        RunFigures fa = a.figures(), fb = b.figures();
        List<Row> rows = new ArrayList<>();
        rows.add(row("run", "label", fa.label(), fb.label()));
        rows.add(row("run", "status", fa.status(), fb.status()));
        rows.add(row("run", "platforms", String.join(", ", fa.byPlatform().keySet()), String.join(", ", fb.byPlatform().keySet())));
        rows.add(row("run", "tasks", fa.overall().tasks(), fb.overall().tasks()));
        rows.add(row("run", "window", fa.window().seconds(), fb.window().seconds()));
        for (String measure : HtmlReport.MEASURES) {
            Percentiles.Summary sa = fa.overall().latency().byMeasure().get(measure), sb = fb.overall().latency().byMeasure().get(measure);
            for (String p : HtmlReport.PERCENTILES) {
                rows.add(row("latency", measure + " " + p, figure(sa, p), figure(sb, p)));
            }
        }
        for (String kind : List.of("scan", "hash")) {
            Long pa = kindP50(fa, kind), pb = kindP50(fb, kind);
            if (pa != null || pb != null) rows.add(row("latency", kind + " taskDurationMs p50", pa, pb));
        }
        RunFigures.Throughput ta = fa.overall().throughput(), tb = fb.overall().throughput();
        rows.add(row("throughput", "tasksPerSecond", ta.tasksPerSecond(), tb.tasksPerSecond()));
        rows.add(row("throughput", "eventsPerSecond", ta.eventsPerSecond(), tb.eventsPerSecond()));
        rows.add(row("throughput", "uncompressedMBPerSecond", ta.uncompressedMBPerSecond(), tb.uncompressedMBPerSecond()));
        rows.add(row("throughput", "hashesPerSecond", ta.hashesPerSecond(), tb.hashesPerSecond()));
        rows.add(row("throughput", "cold start share", fa.overall().coldStarts().share(), fb.overall().coldStarts().share()));
        CostReport ca = a.cost(), cb = b.cost();
        rows.add(row("cost (USD)", "total per run", ca == null ? null : ca.total(), cb == null ? null : cb.total()));
        rows.add(row("cost (USD)", "per million tasks", ca == null ? null : ca.perMillionTasks(), cb == null ? null : cb.perMillionTasks()));
        rows.add(row("cost (USD)", "per GB scanned", kindCost(ca, "scan", CostReport.KindCost::perGbScanned),
                kindCost(cb, "scan", CostReport.KindCost::perGbScanned)));
        rows.add(row("cost (USD)", "per thousand hashes", kindCost(ca, "hash", CostReport.KindCost::perThousandHashes),
                kindCost(cb, "hash", CostReport.KindCost::perThousandHashes)));
        rows.add(row("cost (USD)", "Lambda GB-s per run", ca == null ? null : ca.lambda().gbSeconds(), cb == null ? null : cb.lambda().gbSeconds()));
        for (String architecture : List.of("arm64", "x86_64")) {
            CostReport.Scenario sa = scenario(ca, architecture), sb = scenario(cb, architecture);
            rows.add(row("cost (USD)", "whole run on " + architecture + " (" + (sa == null ? null : sa.basis()) + " / "
                            + (sb == null ? null : sb.basis()) + ")",
                    sa == null ? null : sa.total(), sb == null ? null : sb.total()));
        }
        return rows;
    }

    /** A percentile, the max or the mean of a summary; null where the summary has no values. */
    private static Object figure(Percentiles.Summary summary, String label) {
        // not a ?: of the two: it would widen the Long percentiles to doubles
        if (label.equals("mean")) return summary.mean();
        return summary.at(label);
    }

    private static Long kindP50(RunFigures figures, String kind) {
        RunFigures.Group group = figures.byKind().get(kind);
        return group == null ? null : group.latency().taskDurationMs().p50();
    }

    private static BigDecimal kindCost(CostReport cost, String kind, Function<CostReport.KindCost, BigDecimal> figure) {
        CostReport.KindCost k = cost == null ? null : cost.byKind().get(kind);
        return k == null ? null : figure.apply(k);
    }

    private static CostReport.Scenario scenario(CostReport cost, String architecture) {
        return cost == null ? null : cost.byArchitecture().byArchitecture().get(architecture);
    }

    public static String markdown(Report a, Report b) {
        StringBuilder md = new StringBuilder();
        md.append("# Batchpipe runs compared\n\nA: ").append(MarkdownText.escape(a.runId())).append("  \nB: ")
                .append(MarkdownText.escape(b.runId())).append("\n\n");
        md.append("| section | figure | A | B | B − A | B ÷ A |\n|---|---|---:|---:|---:|---:|\n");
        for (Row r : rows(a, b)) {
            // Labels, statuses, platform names and a basis come from the two reports, which may be any report.json.
            md.append("| ").append(r.section()).append(" | ").append(MarkdownText.escape(r.metric())).append(" | ")
                    .append(MarkdownText.escape(shown(r, r.a()))).append(" | ").append(MarkdownText.escape(shown(r, r.b()))).append(" | ")
                    .append(signed(r, r.delta())).append(" | ").append(ratio(r.ratio())).append(" |\n");
        }
        md.append("\n").append(note()).append("\n");
        return md.toString();
    }

    public static String html(Report a, Report b) {
        StringBuilder html = new StringBuilder(Html.head("Batchpipe runs compared: " + a.runId() + " and " + b.runId()));
        html.append("<h1>Batchpipe runs compared</h1>\n<p class=\"sub\">A: <b>").append(Html.escape(a.runId()))
                .append("</b> · B: <b>").append(Html.escape(b.runId())).append("</b></p>\n<div class=\"charts\">\n");
        html.append(latencyChart(a, b)).append('\n').append(costChart(a, b)).append("\n</div>\n");
        html.append("<h2>Differences</h2>\n<table id=\"comparison\"><tr><th>section</th><th>figure</th><th class=\"n\">A</th>"
                + "<th class=\"n\">B</th><th class=\"n\">B − A</th><th class=\"n\">B ÷ A</th></tr>");
        for (Row r : rows(a, b)) {
            html.append("<tr><td>").append(Html.escape(r.section())).append("</td><td>").append(Html.escape(r.metric())).append("</td>");
            for (String cell : List.of(shown(r, r.a()), shown(r, r.b()), signed(r, r.delta()), ratio(r.ratio()))) {
                html.append("<td class=\"n\">").append(Html.escape(cell)).append("</td>");
            }
            html.append("</tr>");
        }
        html.append("</table>\n<p class=\"note\">").append(Html.escape(note())).append("</p>\n</body>\n</html>\n");
        return html.toString();
    }

    private static String note() {
        return "Percentiles by nearest rank; costs from each run's own report and price table. When A ran on x86_64 and B on"
                + " arm64, B ÷ A of the mean task duration is the ratio to give `batchpipe report --arm64-speed-ratio` for"
                + " projecting one architecture from the other.";
    }

    /** Run A's colour and run B's, in every chart of the page: blue and orange, told apart in any of the common colour blindnesses. */
    static final String COLOUR_A = SvgCharts.PALETTE[0], COLOUR_B = SvgCharts.PALETTE[1];

    private static String latencyChart(Report a, Report b) {
        List<SvgCharts.Curve> curves = new ArrayList<>();
        for (Report report : List.of(a, b)) {
            RunFigures.LatencyDistribution d = report.figures().distribution();
            String run = report == a ? "A" : "B";
            String colour = report == a ? COLOUR_A : COLOUR_B;
            // one colour per run; the measure is solid (task duration) or dashed (end to end)
            curves.add(new SvgCharts.Curve(run + " task duration", colour, d.percentiles(), SvgCharts.doubles(d.taskDurationMs()), false));
            curves.add(new SvgCharts.Curve(run + " end to end", colour, d.percentiles(), SvgCharts.doubles(d.endToEndMs()), true));
        }
        return SvgCharts.cdf("comparison-latency-cdf", "Latency distribution, A and B", "milliseconds", curves);
    }

    private static String costChart(Report a, Report b) {
        List<String> rows = new ArrayList<>();
        List<Double> valuesA = new ArrayList<>(), valuesB = new ArrayList<>();
        List<String> totals = new ArrayList<>();
        for (Report report : List.of(a, b)) {
            for (String architecture : List.of("arm64", "x86_64")) {
                CostReport.Scenario scenario = scenario(report.cost(), architecture);
                BigDecimal perMillion = scenario == null ? null : scenario.perMillionTasks();
                String projection = scenario == null ? null : MarkdownReport.projection(scenario);
                rows.add((report == a ? "A " : "B ") + architecture + " (" + (scenario == null ? null
                        : projection == null ? scenario.basis() : projection.replace("assuming ", "")) + ")");
                double value = perMillion == null ? 0.0 : perMillion.doubleValue();
                valuesA.add(report == a ? value : 0.0);
                valuesB.add(report == a ? 0.0 : value);
                totals.add(Display.usd(perMillion));
            }
        }
        return SvgCharts.horizontalStackedBars("comparison-cost-chart", "Cost per million tasks, whole run on each architecture",
                "USD per million tasks", rows, List.of(new SvgCharts.Series("run A", COLOUR_A, valuesA),
                        new SvgCharts.Series("run B", COLOUR_B, valuesB)), totals);
    }

    private static Row row(String section, String metric, Object a, Object b) {
        BigDecimal da = decimal(a), db = decimal(b);
        BigDecimal delta = da != null && db != null ? db.subtract(da) : null;
        BigDecimal ratio = da != null && db != null && da.signum() != 0 ? db.divide(da, RATIO) : null;
        return new Row(section, metric, a, b, delta, ratio);
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal d) return d;
        if (value instanceof Long || value instanceof Integer) return BigDecimal.valueOf(((Number) value).longValue());
        if (value instanceof Number n) return BigDecimal.valueOf(n.doubleValue());
        return null;
    }

    /**
     * A compared figure as people read it ({@link Display}): durations in ms or s, rates, ratios and costs to 4
     * significant figures, GB-s to 3 decimals, counts exact; text as it is.
     */
    static String shown(Row row, Object value) {
        if (value == null) return Display.NONE;
        BigDecimal number = decimal(value);
        if (number == null) return String.valueOf(value);
        String metric = row.metric();
        return switch (row.section()) {
            case "latency" -> Display.duration(number.doubleValue());
            case "throughput" -> metric.equals("cold start share") ? Display.share(number) : Display.rate(number.doubleValue());
            case "cost (USD)" -> metric.startsWith("Lambda GB-s") ? Display.gbSeconds(number) : Display.usd(number);
            default -> metric.equals("window") ? Display.seconds(number.doubleValue())
                    : number.stripTrailingZeros().scale() <= 0 ? Display.count(number.longValue()) : Display.significant(number, Display.FIGURES);
        };
    }

    private static String ratio(BigDecimal ratio) {
        return ratio == null ? Display.NONE : Display.ratio(ratio);
    }

    private static String signed(Row row, BigDecimal delta) {
        if (delta == null) return Display.NONE;
        String shown = shown(row, delta.abs());
        return delta.signum() > 0 ? "+" + shown : delta.signum() < 0 ? "-" + shown : shown;
    }

}
