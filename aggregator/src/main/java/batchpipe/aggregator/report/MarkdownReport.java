package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.report.Display;
import batchpipe.report.MarkdownText;

import java.math.BigDecimal;
import java.util.ArrayList;
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

    public static String render(Report report) {
        RunFigures figures = report.figures();
        StringBuilder md = new StringBuilder();
        md.append("# Batchpipe run ").append(text(figures.runId())).append("\n\n");
        if (figures.host() != null) md.append("> ").append(text(hostSentence(figures.host()))).append("\n\n");
        if (figures.label() != null) md.append("Label: ").append(text(figures.label())).append("\n\n");
        RunFigures.Window window = figures.window();
        RunFigures.Group overall = figures.overall();
        RunFigures.Totals totals = overall.totals();
        md.append("Status: **").append(text(figures.status())).append("**, ")
                .append(Display.count(overall.tasks())).append(" tasks ").append(text(overall.byStatus()))
                .append(" in ").append(Display.seconds(window.seconds())).append(" (").append(window.definition()).append(").\n\n");
        if (window.planning() != null) {
            md.append("Planning: ").append(Display.seconds(window.planning().seconds())).append(" (").append(window.planning().definition()).append(").\n\n");
        }
        if (figures.failureTolerance() != null) {
            RunFigures.FailureTolerance tolerance = figures.failureTolerance();
            md.append("Failures: ").append(Display.count(tolerance.failedTasks())).append(" of ").append(Display.count(tolerance.plannedTasks()))
                    .append(" planned tasks (").append(Display.percent(BigDecimal.valueOf(tolerance.failedPercent()))).append(", failed or rejected); tolerated ")
                    .append(tolerance.toleratedPercent()).append("%: **")
                    .append(tolerance.withinTolerance() ? "within tolerance" : "tolerance exceeded").append("**.\n\n");
        }
        md.append("| total | value |\n|---|---:|\n");
        md.append("| events scanned | ").append(Display.count(totals.events())).append(" |\n");
        md.append("| malformed lines | ").append(Display.count(totals.malformed())).append(" |\n");
        md.append("| uncompressed bytes | ").append(Display.bytes(totals.bytes())).append(" |\n");
        md.append("| compressed bytes | ").append(Display.bytes(totals.compressedBytes())).append(" |\n");
        md.append("| hashes computed | ").append(Display.count(totals.hashes())).append(" |\n\n");

        md.append("## Throughput and latency by kind\n\n");
        md.append("| group | tasks | tasks/s | events/s | MB/s | hashes/s | duration p50 | p90 | p99 | max |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        row(md, "all", overall);
        figures.byKind().forEach((kind, g) -> row(md, kind, g));
        figures.byPlatform().forEach((platform, g) -> row(md, platform, g));

        md.append("\n## Latency percentiles, all tasks (nearest rank)\n\n");
        md.append("| measure | n | p50 | p90 | p95 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        overall.latency().byMeasure().forEach((name, stats) -> {
            md.append("| ").append(name).append(" | ").append(Display.count(stats.count()));
            for (String p : List.of("p50", "p90", "p95", "p99", "p99.9", "max")) {
                md.append(" | ").append(percentile(stats, p));
            }
            md.append(" |\n");
        });
        if (anySmallSample(figures)) md.append("\n").append(SMALL_SAMPLE_NOTE).append("\n");
        if (figures.latencyDefinitions() != null) {
            RunFigures.LatencyDefinitions d = figures.latencyDefinitions();
            md.append("\ntaskDurationMs: ").append(d.taskDurationMs()).append("; queueWaitMs: ").append(d.queueWaitMs())
                    .append("; endToEndMs: ").append(d.endToEndMs()).append(".\n");
        }
        RunFigures.DynamoDbWrites dynamo = overall.dynamoDb();
        RunFigures.ColdStarts cold = overall.coldStarts();
        md.append("\nCold starts: ").append(coldStartSentence(cold)).append(".")
                .append(" DynamoDB writes: ").append(Display.rate(dynamo.writeCallsPerTask())).append(" calls per task, mean ")
                .append(Display.duration(dynamo.meanWriteMs())).append(", slowest ").append(Display.duration(dynamo.slowestWriteMs())).append(".\n");

        if (figures.dynamoDbCalls() != null) dynamoDbCalls(md, figures.dynamoDbCalls());
        platforms(md, figures.byPlatform());
        if (report.cost() != null) cost(md, report.cost());

        if (!figures.countBy().isEmpty()) {
            md.append("\n## Events by field\n");
            figures.countBy().forEach((path, values) -> {
                md.append("\n| ").append(text(path)).append(" | events |\n|---|---:|\n");
                values.forEach((value, n) -> md.append("| ").append(text(value)).append(" | ").append(Display.count(n)).append(" |\n"));
                String note = countByNote(figures, path);
                if (note != null) md.append("\n").append(note).append("\n");
            });
        }
        if (!figures.problems().isEmpty()) {
            md.append("\n## Tasks that did not finish as done\n\n| task | status | reason |\n|---|---|---|\n");
            figures.problems().forEach(p -> md.append("| ").append(text(p.taskId())).append(" | ").append(text(p.status()))
                    .append(" | ").append(text(p.reason())).append(" |\n"));
        }
        return md.toString();
    }

    /** The mark of a percentile whose sample is too small to carry it ({@link #tooSmallFor}). */
    static final String SMALL_SAMPLE_MARK = "†";
    static final String SMALL_SAMPLE_NOTE = SMALL_SAMPLE_MARK + " too few values for this percentile (fewer than 1 / (1 − p): 100 for p99,"
            + " 1,000 for p99.9), so it is the largest value or one of the few largest, not a tail the run would show again.";

    /**
     * Whether {@code count} values are too few for percentile {@code label} to mean more than "the largest
     * values": nearest rank needs at least 1 / (1 − p) values before a p-th percentile has any value above
     * it (p90: 10, p95: 20, p99: 100, p99.9: 1,000). The median, the max and the mean are never marked.
     */
    static boolean tooSmallFor(String label, long count) {
        if (!label.startsWith("p") || label.equals("p50")) return false;
        double p = Double.parseDouble(label.substring(1));
        return count > 0 && count < 100.0 / (100.0 - p) - 1e-9;
    }

    /** A percentile as a duration, marked when its sample is too small for it. */
    static String percentile(Percentiles.Summary stats, String label) {
        Long value = stats.at(label);
        if (value == null) return Display.NONE;
        return Display.duration(value) + (tooSmallFor(label, stats.count()) ? SMALL_SAMPLE_MARK : "");
    }

    /** Whether some percentile the pages show is marked. */
    static boolean anySmallSample(RunFigures figures) {
        // p99.9 needs the most values, so a sample too small for any marked percentile is too small for it
        if (figures.dynamoDbCalls() != null
                && figures.dynamoDbCalls().byCall().values().stream().anyMatch(c -> c.count() > 0 && tooSmallFor("p99", c.count()))) {
            return true;
        }
        for (RunFigures.Group g : HtmlReport.groups(figures).values()) {
            for (Percentiles.Summary s : g.latency().byMeasure().values()) {
                if (s.count() > 0 && tooSmallFor("p99.9", s.count())) return true;
            }
        }
        return false;
    }

    /**
     * "Local run on Intel(R) Xeon(R) CPU @ 2.20GHz, 2 cores, Eclipse Adoptium 21.0.5+11, load average 0.52, 0.61, 0.7 when
     * the run was planned: ..." for a local run's reports, at the top.
     */
    static String hostSentence(RunFigures.Host host) {
        StringBuilder s = new StringBuilder("Local run on ").append(host.cpuModel()).append(", ").append(host.cores())
                .append(host.cores() == 1 ? " core" : " cores").append(", JDK ").append(host.jdk());
        if (!host.loadAverage().isEmpty()) {
            s.append(", load average ").append(String.join(", ", host.loadAverage().stream().map(v -> Display.significant(v, 3)).toList()))
                    .append(host.loadAverage().size() == 3 ? " (1, 5, 15 min)" : " (1 min)");
        }
        return s.append(" when the run was planned: durations, rates and cold starts are this machine's, not Lambda's;")
                .append(" the costs price them as if Lambda had taken as long.").toString();
    }

    /**
     * What a cost-by-architecture figure rests on, said next to it: null for a measured one, "projected, assuming equal
     * speed" when it takes another architecture's durations as they are, else the duration ratio it applied.
     */
    public static String projection(CostReport.Scenario scenario) {
        if (scenario.basis().equals("measured")) return null;
        BigDecimal ratio = scenario.durationRatio();
        String partly = scenario.basis().equals("partly projected") ? "partly " : "";
        if (ratio == null || ratio.compareTo(BigDecimal.ONE) == 0) return partly + "projected, assuming equal speed";
        return partly + "projected, durations × " + Display.ratio(ratio);
    }

    /** The note under the cost-by-architecture table when some figure is projected at equal speed; null otherwise. */
    static String projectionNote(CostReport cost) {
        List<String> equalSpeed = new ArrayList<>();
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            String projection = projection(a);
            if (projection != null && projection.endsWith("assuming equal speed")) equalSpeed.add(architecture);
        });
        if (equalSpeed.isEmpty()) return null;
        return String.join(" and ", equalSpeed) + " projected from the other architecture's billed durations as if it ran at the same"
                + " speed; `batchpipe report RUN_ID --recompute --arm64-speed-ratio R` projects with a measured ratio (R = arm64 ÷"
                + " x86_64 task duration, for example B ÷ A of the mean task duration in `batchpipe report --compare X86_64_RUN"
                + " ARM64_RUN`).";
    }

    /** A cost figure as shown next to its projection, when it has one: "$0.0001102 (projected, assuming equal speed)". */
    static String projectedAmount(BigDecimal amount, CostReport.Scenario scenario) {
        String projection = projection(scenario);
        return Display.usd(amount) + (projection == null ? "" : " (" + projection + ")");
    }

    /** A bill line's quantity: GB-s to 3 decimals, whole quantities as counts, anything else to 4 significant figures. */
    static String quantity(CostReport.Line line) {
        BigDecimal q = line.quantity();
        if (q == null) return Display.NONE;
        if (line.unit().equals("GB-s")) return Display.gbSeconds(q);
        if (q.stripTrailingZeros().scale() <= 0) return Display.count(q.longValueExact());
        return Display.significant(q, Display.FIGURES);
    }

    /** A unit price exactly as the price table has it: a published price, not a figure of the run. */
    static String unitPrice(BigDecimal price) {
        return price == null ? Display.NONE : "$" + price.stripTrailingZeros().toPlainString();
    }

    /**
     * "Counts approximate (heavy-hitters sketch): each may over-state by up to 1465 events; distinct values
     * estimated." for a countBy path the report's {@code countByAccuracy} does not call exact, else null.
     */
    static String countByNote(RunFigures figures, String path) {
        RunFigures.PathAccuracy accuracy = figures.countByAccuracy().get(path);
        if (accuracy == null) return null;
        List<String> parts = new ArrayList<>();
        if (accuracy.countsApproximate()) {
            parts.add("counts approximate (heavy-hitters sketch): each may over-state by up to " + accuracy.maxOverCount() + " events");
        }
        if (accuracy.distinctEstimated()) parts.add("distinct values estimated");
        if (parts.isEmpty()) return null;
        String note = String.join("; ", parts);
        return Character.toUpperCase(note.charAt(0)) + note.substring(1) + ".";
    }

    /** "2 of 5 worker invocations (40%), one init each", or a per-task report's "7 tasks (50%)". */
    static String coldStartSentence(RunFigures.ColdStarts cold) {
        if (!cold.perInvocation()) return Display.count(cold.tasks()) + " tasks (" + Display.share(cold.share()) + ")";
        return Display.count(cold.coldInvocations()) + " of " + Display.count(cold.invocations()) + " worker invocations ("
                + Display.share(cold.share()) + ")"
                + (cold.coldInvocations() > 0 ? ", one init each" : "");
    }

    /** "2/5 (40%)": cold invocations of invocations; a per-task report's "7 (50%)" is tasks. */
    static String coldStartCell(RunFigures.ColdStarts cold) {
        if (!cold.perInvocation()) return Display.count(cold.tasks()) + " (" + Display.share(cold.share()) + ")";
        return Display.count(cold.coldInvocations()) + "/" + Display.count(cold.invocations()) + " (" + Display.share(cold.share()) + ")";
    }

    private static void dynamoDbCalls(StringBuilder md, RunFigures.DynamoDbCalls calls) {
        md.append("\n## DynamoDB calls from the workers (nearest rank)\n\n");
        md.append("| call | count | p50 | p99 | max |\n|---|---:|---:|---:|---:|\n");
        calls.byCall().forEach((call, c) -> md.append("| ").append(call).append(" | ").append(Display.count(c.count())).append(" | ")
                .append(Display.duration(c.p50Ms())).append(" | ").append(Display.duration(c.p99Ms()))
                .append(tooSmallFor("p99", c.count()) ? SMALL_SAMPLE_MARK : "").append(" | ").append(Display.duration(c.maxMs())).append(" |\n"));
        md.append("\n").append(text(calls.definition())).append(".\n");
    }

    private static void platforms(StringBuilder md, Map<String, RunFigures.Group> byPlatform) {
        md.append("\n## Platforms (architecture / memory)\n\n");
        md.append("| platform | tasks | cold starts | init p50 | threads seen | vCPU shares seen | queue wait p99 | end to end p99 |\n");
        md.append("|---|---:|---:|---:|---|---|---:|---:|\n");
        byPlatform.forEach((platform, g) -> {
            RunFigures.ColdStarts cold = g.coldStarts();
            md.append("| ").append(text(platform)).append(" | ").append(Display.count(g.tasks()))
                    .append(" | ").append(coldStartCell(cold))
                    .append(" | ").append(percentile(cold.initMs(), "p50"))
                    .append(" | ").append(g.workers().threadsSeen())
                    .append(" | ").append(g.workers().vcpuSharesSeen())
                    .append(" | ").append(percentile(g.latency().queueWaitMs(), "p99"))
                    .append(" | ").append(percentile(g.latency().endToEndMs(), "p99")).append(" |\n");
        });
    }

    /** "worker arm64 1769 MB: peak 412 MB" for each Lambda group whose REPORT lines say how much memory it used. */
    static List<String> memoryPeaks(CostReport cost) {
        List<String> peaks = new ArrayList<>();
        for (CostReport.LambdaGroup g : cost.lambda().groups()) {
            if (g.maxMemoryUsedMb() != null) {
                peaks.add(g.function() + " " + g.architecture() + " " + g.memoryMb() + " MB: peak " + g.maxMemoryUsedMb() + " MB");
            }
        }
        return peaks;
    }

    private static void cost(StringBuilder md, CostReport cost) {
        CostReport.Prices table = cost.priceTable();
        CostReport.InvocationSources durations = cost.durations().invocations();
        md.append("\n## Cost (").append(text(cost.currency())).append(")\n\n");
        md.append("Prices: ").append(text(table.region())).append(", dated ").append(text(table.date()))
                .append(" (").append(text(table.origin())).append("). Lambda durations: ")
                .append(Display.count(durations.fromReportLines())).append(" invocations billed from REPORT lines, ")
                .append(Display.count(durations.fromTaskRecords())).append(" measured from task records.");
        List<String> peaks = memoryPeaks(cost);
        if (!peaks.isEmpty()) md.append(" Max Memory Used (REPORT lines): ").append(text(String.join("; ", peaks))).append(".");
        md.append("\n\n");
        md.append("| service | item | quantity | unit | unit price | cost | how |\n|---|---|---:|---|---:|---:|---|\n");
        for (CostReport.Line line : cost.lines()) {
            md.append("| ").append(line.service()).append(" | ").append(text(line.item()))
                    .append(" | ").append(quantity(line)).append(" | ").append(line.unit())
                    .append(" | ").append(unitPrice(line.unitPrice())).append(" | ").append(Display.usd(line.cost()))
                    .append(" | ").append(text(line.formula())).append(" |\n");
        }
        md.append("| **total per run** | | | | | **").append(Display.usd(cost.total())).append("** | |\n\n");
        md.append("Per million tasks: ").append(Display.usd(cost.perMillionTasks())).append(".");
        cost.byKind().forEach((kind, k) -> {
            md.append(" ").append(kind).append(": ").append(Display.usd(k.cost())).append(" (").append(Display.share(k.share()))
                    .append(" of task time)");
            if (k.perGbScanned() != null) md.append(", ").append(Display.usd(k.perGbScanned())).append(" per GB scanned");
            if (k.perThousandHashes() != null) md.append(", ").append(Display.usd(k.perThousandHashes())).append(" per thousand hashes");
            md.append(".");
        });
        md.append("\n\n### By architecture\n\n");
        md.append("| architecture | basis | GB-s | Lambda compute | ").append(initColumn(cost))
                .append(" | requests | other services | total per run | per million tasks |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> assumptions = new ArrayList<>();
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            md.append("| ").append(architecture).append(" | ").append(a.basis()).append(" | ").append(Display.gbSeconds(a.gbSeconds()))
                    .append(" | ").append(Display.usd(a.lambdaCompute())).append(" | ").append(Display.usd(a.lambdaInit()))
                    .append(" | ").append(Display.usd(a.lambdaRequests())).append(" | ").append(Display.usd(a.otherServices()))
                    .append(" | ").append(projectedAmount(a.total(), a)).append(" | ").append(projectedAmount(a.perMillionTasks(), a)).append(" |\n");
            if (a.assumption() != null) assumptions.add(architecture + ": " + a.assumption());
        });
        for (String assumption : assumptions) md.append("\n- ").append(assumption);
        String projectionNote = projectionNote(cost);
        if (projectionNote != null) md.append("\n\n").append(projectionNote);
        CostReport.Monthly monthly = cost.monthly();
        md.append("\n\n### Monthly projection at ").append(Display.count(monthly.runsPerMonth())).append(" runs a month\n\n");
        md.append("| architecture | GB-s | Lambda compute (volume tiers) | requests | other services | total |\n|---|---:|---:|---:|---:|---:|\n");
        monthly.byArchitecture().forEach((architecture, m) -> md.append("| ").append(architecture).append(" | ").append(Display.gbSeconds(m.gbSeconds()))
                .append(" | ").append(Display.usd(m.lambdaCompute())).append(" | ").append(Display.usd(m.lambdaRequests()))
                .append(" | ").append(Display.usd(m.otherServices())).append(" | ").append(Display.usd(m.total())).append(" |\n"));
        md.append("\nNot included: ").append(String.join("; ", cost.notIncluded())).append(".\n");
    }

    /** The INIT column's head: a share of compute in reports since INIT is read inside Billed Duration, an addend before. */
    static String initColumn(CostReport cost) {
        return cost.lambda().initInCompute() ? "of which INIT" : "INIT";
    }

    /** An amount as written in report.json (no exponent); absent as a dash. */
    static String plain(BigDecimal value) {
        return value == null ? "–" : value.toPlainString();
    }

    /** A percentile of no values as a dash. */
    static Object dash(Long value) {
        return value == null ? "–" : value;
    }

    private static String text(Object value) {
        return MarkdownText.escape(value);
    }

    private static void row(StringBuilder md, String name, RunFigures.Group g) {
        RunFigures.Throughput t = g.throughput();
        Percentiles.Summary d = g.latency().taskDurationMs();
        md.append("| ").append(text(name)).append(" | ").append(Display.count(g.tasks()))
                .append(" | ").append(Display.rate(t.tasksPerSecond())).append(" | ").append(Display.rate(t.eventsPerSecond()))
                .append(" | ").append(Display.rate(t.uncompressedMBPerSecond())).append(" | ").append(Display.rate(t.hashesPerSecond()))
                .append(" | ").append(percentile(d, "p50")).append(" | ").append(percentile(d, "p90"))
                .append(" | ").append(percentile(d, "p99")).append(" | ").append(percentile(d, "max")).append(" |\n");
    }
}
