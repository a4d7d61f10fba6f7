package batchpipe.local.report;

import batchpipe.common.json.Json;
import batchpipe.report.Html;
import batchpipe.report.MarkdownText;
import batchpipe.report.SvgCharts;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * A sweep's three files: sweep.json (the {@link SweepReport} tree), sweep.md (its tables) and
 * sweep.html (the tables and the charts, self-contained like report.html: inline SVG, no script, no
 * network). Every value shown is one of sweep.json's.
 */
public final class SweepDocuments {
    public static final List<String> FILE_NAMES = List.of("sweep.json", "sweep.md", "sweep.html");

    private SweepDocuments() {
    }

    /** The files by name, in {@link #FILE_NAMES} order. */
    public static Map<String, String> render(SweepReport report) {
        Map<String, String> files = new LinkedHashMap<>();
        files.put("sweep.json", Json.writePretty(report) + "\n");
        files.put("sweep.md", markdown(report));
        files.put("sweep.html", html(report));
        return files;
    }

    /** The first line of every document: what the sweep is, and (first of all) when CPU was not capped. */
    static String headline(SweepReport r) {
        return (r.capped() ? "" : "CPU not capped: ") + "Batchpipe sweep " + r.sweepId() + (r.label() == null ? "" : " (" + r.label() + ")");
    }

    public static String markdown(SweepReport r) {
        StringBuilder md = new StringBuilder();
        md.append("# ").append(MarkdownText.escape(headline(r))).append("\n\n");
        md.append("CPU: ").append(MarkdownText.escape(r.cpu())).append("\n\n");
        md.append("**Recommendation** (strategy ").append(r.maxP99Ms() != null ? "cheapest within p99 " + String.format(Locale.ROOT, "%,d", r.maxP99Ms()) + " ms"
                : r.strategy() + (r.strategy().equals("balanced") ? ", weight " + r.balancedWeight() : "")).append("): ")
                .append(r.recommendation().key() == null ? "none" : "`" + r.recommendation().key() + "`").append(". ")
                .append(MarkdownText.escape(r.recommendation().reason())).append("\n\n");
        md.append("Pareto frontier (cost per run against p99, cheapest first): ")
                .append(r.paretoFrontier().isEmpty() ? "none" : String.join(", ", r.paretoFrontier().stream().map(k -> "`" + k + "`").toList())).append("\n\n");

        md.append("## Configurations\n\n");
        md.append("| configuration | vCPU share | status | run | instances at once | throttled periods | JVM processors | pool threads | cost per run | per million tasks | per GB scanned | per 1,000 hashes | hash rate per task (/s) |\n");
        md.append("|---|---:|---|---|---:|---:|---:|---|---:|---:|---:|---:|---:|\n");
        for (SweepReport.Configuration c : r.configurations()) {
            SweepReport.CpuEvidence e = c.evidence();
            md.append("| ").append(c.key()).append(" | ").append(share(c.vcpuShare())).append(" | ").append(c.status())
                    .append(c.note() == null ? "" : ": " + MarkdownText.escape(c.note())).append(" | ").append(c.runId() == null ? "" : "`" + c.runId() + "`")
                    .append(" | ").append(c.runId() == null ? "" : c.instances())
                    .append(" | ").append(e == null ? "" : String.format(Locale.ROOT, "%,d of %,d (%.1f s)", e.throttledPeriods(), e.periods(), e.throttledSeconds()))
                    .append(" | ").append(e == null || e.jvmProcessors() == null ? "" : e.jvmProcessors())
                    .append(" | ").append(e == null ? "" : e.workerThreads().toString())
                    .append(" | ").append(c.cost() == null ? "" : money(c.cost().perRun()))
                    .append(" | ").append(c.cost() == null ? "" : money(c.cost().perMillionTasks()))
                    .append(" | ").append(c.cost() == null ? "" : money(c.cost().perGbScanned()))
                    .append(" | ").append(c.cost() == null ? "" : money(c.cost().perThousandHashes()))
                    .append(" | ").append(c.hashRatePerTask() == null ? "" : String.format(Locale.ROOT, "%.2f", c.hashRatePerTask())).append(" |\n");
        }
        md.append("\n## By kind\n\n");
        md.append("| configuration | kind | tasks | not done | p50 ms | p90 ms | p99 ms | tasks/s | MB/s | hashes/s | cold-start share | init p50 ms | speedup (p50) | ideal |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (SweepReport.Configuration c : r.configurations()) {
            c.byKind().forEach((kind, k) -> md.append("| ").append(c.key()).append(" | ").append(MarkdownText.escape(kind)).append(" | ")
                    .append(k.tasks()).append(" | ").append(k.notDone()).append(" | ").append(ms(k.p50Ms())).append(" | ").append(ms(k.p90Ms()))
                    .append(" | ").append(ms(k.p99Ms())).append(" | ").append(num(k.tasksPerSecond())).append(" | ").append(num(k.uncompressedMBPerSecond()))
                    .append(" | ").append(num(k.hashesPerSecond())).append(" | ").append(String.format(Locale.ROOT, "%.3f", k.coldStartShare()))
                    .append(" | ").append(ms(k.initP50Ms())).append(" | ").append(k.speedup() == null ? "" : num(k.speedup()))
                    .append(" | ").append(k.idealSpeedup() == null ? "" : num(k.idealSpeedup())).append(" |\n"));
        }
        md.append("\n## Definitions\n\n");
        SweepReport.Definitions d = r.definitions();
        md.append("- Duration: ").append(d.duration()).append("\n- Cost per run: ").append(d.costPerRun()).append("\n- Speedup: ")
                .append(d.speedup()).append("\n- Hash rate per task: ").append(d.hashRate()).append("\n- Recommendation: ").append(d.time()).append("\n");
        return md.toString();
    }

    public static String html(SweepReport r) {
        StringBuilder html = new StringBuilder(Html.head(headline(r)));
        html.append("<h1>").append(Html.escape(headline(r))).append("</h1>\n");
        html.append("<p class=\"sub\">CPU: ").append(Html.escape(r.cpu())).append("</p>\n");
        html.append("<p><b>Recommendation: ").append(Html.escape(r.recommendation().key() == null ? "none" : r.recommendation().key()))
                .append("</b>. ").append(Html.escape(r.recommendation().reason())).append("</p>\n");
        html.append("<p class=\"sub\">Pareto frontier (cost per run against p99): ")
                .append(Html.escape(r.paretoFrontier().isEmpty() ? "none" : String.join(", ", r.paretoFrontier()))).append("</p>\n");
        html.append("<h2>Charts</h2>\n<div class=\"charts\">\n");
        charts(r).values().forEach(svg -> html.append(svg).append('\n'));
        html.append("</div>\n<h2>Configurations and kinds</h2>\n");
        html.append("<table><tr><th>configuration</th><th>status</th><th>run</th><th>kind</th><th class=\"n\">tasks</th><th class=\"n\">p50 ms</th>"
                + "<th class=\"n\">p90 ms</th><th class=\"n\">p99 ms</th><th class=\"n\">tasks/s</th><th class=\"n\">cold share</th>"
                + "<th class=\"n\">init p50 ms</th><th class=\"n\">speedup</th><th class=\"n\">cost per run</th><th class=\"n\">per M tasks</th>"
                + "<th class=\"n\">per GB</th><th class=\"n\">per 1k hashes</th><th class=\"n\">throttled periods</th></tr>\n");
        for (SweepReport.Configuration c : r.configurations()) {
            if (c.byKind().isEmpty()) {
                html.append("<tr><td>").append(Html.escape(c.key())).append("</td><td>").append(Html.escape(c.status())).append("</td><td>")
                        .append(c.runId() == null ? "" : "<code>" + Html.escape(c.runId()) + "</code>").append("</td><td colspan=\"14\">")
                        .append(Html.escape(c.note() == null ? "" : c.note())).append("</td></tr>\n");
                continue;
            }
            boolean first = true;
            for (var entry : c.byKind().entrySet()) {
                SweepReport.KindFigures k = entry.getValue();
                html.append("<tr><td>").append(first ? Html.escape(c.key()) : "").append("</td><td>").append(first ? Html.escape(c.status()) : "")
                        .append("</td><td>").append(first ? "<code>" + Html.escape(c.runId()) + "</code>" : "").append("</td><td>")
                        .append(Html.escape(entry.getKey())).append("</td>");
                cell(html, Long.toString(k.tasks()));
                cell(html, ms(k.p50Ms()));
                cell(html, ms(k.p90Ms()));
                cell(html, ms(k.p99Ms()));
                cell(html, num(k.tasksPerSecond()));
                cell(html, String.format(Locale.ROOT, "%.3f", k.coldStartShare()));
                cell(html, ms(k.initP50Ms()));
                cell(html, k.speedup() == null ? "" : num(k.speedup()) + " (ideal " + num(k.idealSpeedup()) + ")");
                boolean costRow = first && c.cost() != null;
                cell(html, costRow ? money(c.cost().perRun()) : "");
                cell(html, costRow ? money(c.cost().perMillionTasks()) : "");
                cell(html, costRow ? money(c.cost().perGbScanned()) : "");
                cell(html, costRow ? money(c.cost().perThousandHashes()) : "");
                cell(html, first && c.evidence() != null ? String.format(Locale.ROOT, "%,d of %,d", c.evidence().throttledPeriods(), c.evidence().periods()) : "");
                html.append("</tr>\n");
                first = false;
            }
        }
        html.append("</table>\n<h2>Definitions</h2>\n<ul>");
        SweepReport.Definitions d = r.definitions();
        for (String item : List.of("Duration: " + d.duration(), "Cost per run: " + d.costPerRun(), "Speedup: " + d.speedup(),
                "Hash rate per task: " + d.hashRate(), "Recommendation: " + d.time())) {
            html.append("<li>").append(Html.escape(item)).append("</li>");
        }
        return html.append("</ul>\n</body>\n</html>\n").toString();
    }

    /**
     * The charts by file stem: p99 and p50 duration against memory per architecture, cost per run against
     * memory, speedup against vCPU share next to the ideal line, and cost against p99 with the Pareto frontier.
     */
    public static Map<String, String> charts(SweepReport r) {
        List<SweepReport.Configuration> measured = r.configurations().stream().filter(SweepReport.Configuration::measured).toList();
        Set<String> architectures = new LinkedHashSet<>();
        measured.forEach(c -> architectures.add(c.architecture()));
        Map<String, String> charts = new LinkedHashMap<>();
        List<SvgCharts.XySeries> duration = new ArrayList<>();
        List<SvgCharts.XySeries> cost = new ArrayList<>();
        int color = 0;
        for (String arch : architectures) {
            List<SweepReport.Configuration> ofArch = measured.stream().filter(c -> c.architecture().equals(arch)).toList();
            duration.add(new SvgCharts.XySeries(arch + " p99", SvgCharts.PALETTE[color % 8], points(ofArch, c -> c.byKind().get(SweepReport.ALL).p99Ms())));
            duration.add(new SvgCharts.XySeries(arch + " p50", SvgCharts.PALETTE[(color + 1) % 8], points(ofArch, c -> c.byKind().get(SweepReport.ALL).p50Ms())));
            cost.add(new SvgCharts.XySeries(arch + " cost per run (USD)", SvgCharts.PALETTE[color % 8],
                    points(ofArch, c -> c.cost() == null ? null : c.cost().perRun().doubleValue())));
            color += 2;
        }
        charts.put("sweep-duration", SvgCharts.xy("sweep-duration", "Task duration against memory", "memory (MB)", "task duration (ms)", duration));
        charts.put("sweep-cost", SvgCharts.xy("sweep-cost", "Cost per run against memory", "memory (MB)", "USD per run", cost));
        List<SvgCharts.XySeries> speedup = new ArrayList<>();
        Set<String> kinds = new LinkedHashSet<>();
        measured.forEach(c -> kinds.addAll(c.byKind().keySet()));
        color = 0;
        Map<Double, Double> ideal = new java.util.TreeMap<>();
        for (String arch : architectures) {
            for (String kind : kinds) {
                List<double[]> pts = new ArrayList<>();
                for (SweepReport.Configuration c : measured) {
                    SweepReport.KindFigures k = c.byKind().get(kind);
                    if (!c.architecture().equals(arch) || k == null || k.speedup() == null) continue;
                    pts.add(new double[] {c.vcpuShare(), k.speedup()});
                    ideal.put(c.vcpuShare(), k.idealSpeedup());
                }
                if (!pts.isEmpty()) speedup.add(new SvgCharts.XySeries(arch + " " + kind, SvgCharts.PALETTE[color++ % 8], pts));
            }
        }
        speedup.add(new SvgCharts.XySeries("ideal (vCPU share ratio)", "#6b7280",
                ideal.entrySet().stream().map(e -> new double[] {e.getKey(), e.getValue()}).toList(), List.of(), true, false));
        charts.put("sweep-speedup", SvgCharts.xy("sweep-speedup", "Speedup of the p50 task duration against vCPU share", "vCPU share (memory ÷ 1,769 MB)",
                "speedup over the smallest memory", speedup));
        List<double[]> all = new ArrayList<>();
        List<String> allLabels = new ArrayList<>();
        List<double[]> frontier = new ArrayList<>();
        List<String> frontierLabels = new ArrayList<>();
        for (SweepReport.Candidate c : SweepReport.candidates(r.configurations())) {
            double[] p = {c.p99Ms(), c.cost().doubleValue()};
            if (r.paretoFrontier().contains(c.key())) {
                frontier.add(p);
                frontierLabels.add(c.key());
            } else {
                all.add(p);
                allLabels.add(c.key() + (c.failed() ? " (failed)" : ""));
            }
        }
        List<Integer> order = new ArrayList<>();
        for (int i = 0; i < frontier.size(); i++) order.add(i);
        order.sort((a, b) -> Double.compare(frontier.get(a)[0], frontier.get(b)[0]));
        charts.put("sweep-pareto", SvgCharts.xy("sweep-pareto", "Cost per run against p99 task duration", "p99 task duration (ms)", "USD per run",
                List.of(new SvgCharts.XySeries("Pareto frontier", SvgCharts.PALETTE[2], order.stream().map(frontier::get).toList(),
                                order.stream().map(frontierLabels::get).toList(), false, false),
                        new SvgCharts.XySeries("dominated or failed", SvgCharts.PALETTE[7], all, allLabels, false, true))));
        return charts;
    }

    /** A chart as a file of its own (for docs): the report page's chart style inside the SVG. */
    public static String standaloneSvg(String svg) {
        int close = svg.indexOf('>');
        return svg.substring(0, close + 1) + "<style>text{font-family:sans-serif;font-size:13px;fill:#374151}.chart-title{font-size:15px;"
                + "font-weight:600}.grid{stroke:#e5e7eb;stroke-width:1}.axis{stroke:#6b7280;stroke-width:1.2}</style><rect width=\"100%\" "
                + "height=\"100%\" fill=\"#fff\"/>" + svg.substring(close + 1) + "\n";
    }

    private static List<double[]> points(List<SweepReport.Configuration> configurations, java.util.function.Function<SweepReport.Configuration, Number> y) {
        List<double[]> points = new ArrayList<>();
        for (SweepReport.Configuration c : configurations) {
            Number v = y.apply(c);
            if (v != null) points.add(new double[] {c.memoryMb(), v.doubleValue()});
        }
        return points;
    }

    private static void cell(StringBuilder html, String value) {
        html.append("<td class=\"n\">").append(Html.escape(value)).append("</td>");
    }

    private static String share(double share) {
        return String.format(Locale.ROOT, "%.3f", share);
    }

    private static String ms(Long value) {
        return value == null ? "" : String.format(Locale.ROOT, "%,d", value);
    }

    private static String num(double value) {
        return String.format(Locale.ROOT, value >= 100 ? "%,.0f" : "%.3f", value);
    }

    static String money(BigDecimal amount) {
        return amount == null ? "" : SweepReport.dollars(amount);
    }
}
