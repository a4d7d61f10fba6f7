package batchpipe.aggregator.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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

    @SuppressWarnings("unchecked")
    public static List<Row> rows(Map<String, Object> a, Map<String, Object> b) {
        List<Row> rows = new ArrayList<>();
        rows.add(row("run", "label", a.get("label"), b.get("label")));
        rows.add(row("run", "status", a.get("status"), b.get("status")));
        rows.add(row("run", "platforms", String.join(", ", HtmlReport.map(a, "byPlatform").keySet()),
                String.join(", ", HtmlReport.map(b, "byPlatform").keySet())));
        rows.add(row("run", "tasks", get(a, "overall", "tasks"), get(b, "overall", "tasks")));
        rows.add(row("run", "window seconds", get(a, "window", "seconds"), get(b, "window", "seconds")));
        for (String measure : HtmlReport.MEASURES) {
            for (String p : HtmlReport.PERCENTILES) {
                rows.add(row("latency (ms)", measure + " " + p, get(a, "overall", "latency", measure, p), get(b, "overall", "latency", measure, p)));
            }
        }
        for (String kind : List.of("scan", "hash")) {
            Object pa = get(a, "byKind", kind, "latency", "taskDurationMs", "p50");
            Object pb = get(b, "byKind", kind, "latency", "taskDurationMs", "p50");
            if (pa != null || pb != null) rows.add(row("latency (ms)", kind + " taskDurationMs p50", pa, pb));
        }
        for (String t : List.of("tasksPerSecond", "eventsPerSecond", "uncompressedMBPerSecond", "hashesPerSecond")) {
            rows.add(row("throughput", t, get(a, "overall", "throughput", t), get(b, "overall", "throughput", t)));
        }
        rows.add(row("throughput", "cold start share", get(a, "overall", "coldStarts", "share"), get(b, "overall", "coldStarts", "share")));
        rows.add(row("cost (USD)", "total per run", get(a, "cost", "total"), get(b, "cost", "total")));
        rows.add(row("cost (USD)", "per million tasks", get(a, "cost", "perMillionTasks"), get(b, "cost", "perMillionTasks")));
        rows.add(row("cost (USD)", "per GB scanned", get(a, "cost", "byKind", "scan", "perGbScanned"), get(b, "cost", "byKind", "scan", "perGbScanned")));
        rows.add(row("cost (USD)", "per thousand hashes", get(a, "cost", "byKind", "hash", "perThousandHashes"),
                get(b, "cost", "byKind", "hash", "perThousandHashes")));
        rows.add(row("cost (USD)", "Lambda GB-s per run", get(a, "cost", "lambda", "gbSeconds"), get(b, "cost", "lambda", "gbSeconds")));
        for (String architecture : List.of("arm64", "x86_64")) {
            rows.add(row("cost (USD)", "whole run on " + architecture + " (" + get(a, "cost", "byArchitecture", architecture, "basis") + " / "
                            + get(b, "cost", "byArchitecture", architecture, "basis") + ")",
                    get(a, "cost", "byArchitecture", architecture, "total"), get(b, "cost", "byArchitecture", architecture, "total")));
        }
        return rows;
    }

    public static String markdown(Map<String, Object> a, Map<String, Object> b) {
        StringBuilder md = new StringBuilder();
        md.append("# Batchpipe runs compared\n\nA: ").append(MarkdownText.escape(a.get("runId"))).append("  \nB: ")
                .append(MarkdownText.escape(b.get("runId"))).append("\n\n");
        md.append("| section | figure | A | B | B − A | B ÷ A |\n|---|---|---:|---:|---:|---:|\n");
        for (Row r : rows(a, b)) {
            // Labels, statuses, platform names and a basis come from the two reports, which may be any report.json.
            md.append("| ").append(r.section()).append(" | ").append(MarkdownText.escape(r.metric())).append(" | ")
                    .append(MarkdownText.escape(text(r.a()))).append(" | ").append(MarkdownText.escape(text(r.b()))).append(" | ")
                    .append(signed(r.delta())).append(" | ").append(text(r.ratio())).append(" |\n");
        }
        md.append("\n").append(note()).append("\n");
        return md.toString();
    }

    public static String html(Map<String, Object> a, Map<String, Object> b) {
        StringBuilder html = new StringBuilder(Html.head("Batchpipe runs compared: " + a.get("runId") + " and " + b.get("runId")));
        html.append("<h1>Batchpipe runs compared</h1>\n<p class=\"sub\">A: <b>").append(Html.escape(a.get("runId")))
                .append("</b> · B: <b>").append(Html.escape(b.get("runId"))).append("</b></p>\n<div class=\"charts\">\n");
        html.append(latencyChart(a, b)).append('\n').append(costChart(a, b)).append("\n</div>\n");
        html.append("<h2>Differences</h2>\n<table id=\"comparison\"><tr><th>section</th><th>figure</th><th class=\"n\">A</th>"
                + "<th class=\"n\">B</th><th class=\"n\">B − A</th><th class=\"n\">B ÷ A</th></tr>");
        for (Row r : rows(a, b)) {
            html.append("<tr><td>").append(Html.escape(r.section())).append("</td><td>").append(Html.escape(r.metric())).append("</td>");
            for (String cell : List.of(text(r.a()), text(r.b()), signed(r.delta()), text(r.ratio()))) {
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

    @SuppressWarnings("unchecked")
    private static String latencyChart(Map<String, Object> a, Map<String, Object> b) {
        List<SvgCharts.Curve> curves = new ArrayList<>();
        int colour = 0;
        for (Map<String, Object> report : List.of(a, b)) {
            Map<String, Object> d = HtmlReport.map(report, "distribution");
            List<Double> percentiles = SvgCharts.doubles((List<Object>) d.getOrDefault("percentiles", List.of()));
            String run = report == a ? "A" : "B";
            curves.add(new SvgCharts.Curve(run + " task duration", SvgCharts.PALETTE[colour++], percentiles,
                    SvgCharts.doubles((List<Object>) d.getOrDefault("taskDurationMs", List.of()))));
            curves.add(new SvgCharts.Curve(run + " end to end", SvgCharts.PALETTE[colour++], percentiles,
                    SvgCharts.doubles((List<Object>) d.getOrDefault("endToEndMs", List.of()))));
        }
        return SvgCharts.cdf("comparison-latency-cdf", "Latency distribution, A and B", "milliseconds", curves);
    }

    private static String costChart(Map<String, Object> a, Map<String, Object> b) {
        List<String> rows = new ArrayList<>();
        List<Double> values = new ArrayList<>();
        List<String> totals = new ArrayList<>();
        for (Map<String, Object> report : List.of(a, b)) {
            for (String architecture : List.of("arm64", "x86_64")) {
                Object perMillion = get(report, "cost", "byArchitecture", architecture, "perMillionTasks");
                rows.add((report == a ? "A " : "B ") + architecture + " (" + get(report, "cost", "byArchitecture", architecture, "basis") + ")");
                values.add(perMillion instanceof Number n ? n.doubleValue() : 0.0);
                totals.add(perMillion == null ? "–" : "$" + text(perMillion));
            }
        }
        return SvgCharts.horizontalStackedBars("comparison-cost-chart", "Cost per million tasks, whole run on each architecture",
                "USD per million tasks", rows, List.of(new SvgCharts.Series("per million tasks", SvgCharts.PALETTE[0], values)), totals);
    }

    private static Row row(String section, String metric, Object a, Object b) {
        BigDecimal da = decimal(a), db = decimal(b);
        BigDecimal delta = da != null && db != null ? db.subtract(da) : null;
        BigDecimal ratio = da != null && db != null && da.signum() != 0 ? db.divide(da, RATIO) : null;
        return new Row(section, metric, a, b, delta, ratio);
    }

    @SuppressWarnings("unchecked")
    static Object get(Map<String, Object> report, String... path) {
        Object current = report;
        for (String key : path) {
            if (!(current instanceof Map<?, ?> m)) return null;
            current = ((Map<String, Object>) m).get(key);
        }
        return current;
    }

    private static BigDecimal decimal(Object value) {
        if (value instanceof BigDecimal d) return d;
        if (value instanceof Long || value instanceof Integer) return BigDecimal.valueOf(((Number) value).longValue());
        if (value instanceof Number n) return BigDecimal.valueOf(n.doubleValue());
        return null;
    }

    private static String text(Object value) {
        if (value == null) return "–";
        if (value instanceof BigDecimal d) return d.stripTrailingZeros().toPlainString();
        if (value instanceof Double d) return BigDecimal.valueOf(d).stripTrailingZeros().toPlainString();
        return String.valueOf(value);
    }

    private static String signed(BigDecimal delta) {
        if (delta == null) return "–";
        String plain = delta.stripTrailingZeros().toPlainString();
        return delta.signum() > 0 ? "+" + plain : plain;
    }
}
