package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;

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
        if (figures.label() != null) md.append("Label: ").append(text(figures.label())).append("\n\n");
        RunFigures.Window window = figures.window();
        RunFigures.Group overall = figures.overall();
        RunFigures.Totals totals = overall.totals();
        md.append("Status: **").append(text(figures.status())).append("**, ")
                .append(overall.tasks()).append(" tasks ").append(text(overall.byStatus()))
                .append(" in ").append(window.seconds()).append(" s (").append(window.definition()).append(").\n\n");
        if (window.planning() != null) {
            md.append("Planning: ").append(window.planning().seconds()).append(" s (").append(window.planning().definition()).append(").\n\n");
        }
        if (figures.failureTolerance() != null) {
            RunFigures.FailureTolerance tolerance = figures.failureTolerance();
            md.append("Failures: ").append(tolerance.failedTasks()).append(" of ").append(tolerance.plannedTasks())
                    .append(" planned tasks (").append(tolerance.failedPercent()).append("%, failed or rejected); tolerated ")
                    .append(tolerance.toleratedPercent()).append("%: **")
                    .append(tolerance.withinTolerance() ? "within tolerance" : "tolerance exceeded").append("**.\n\n");
        }
        md.append("| total | value |\n|---|---:|\n");
        md.append("| events scanned | ").append(totals.events()).append(" |\n");
        md.append("| malformed lines | ").append(totals.malformed()).append(" |\n");
        md.append("| uncompressed bytes | ").append(totals.bytes()).append(" |\n");
        md.append("| compressed bytes | ").append(totals.compressedBytes()).append(" |\n");
        md.append("| hashes computed | ").append(totals.hashes()).append(" |\n\n");

        md.append("## Throughput and latency by kind\n\n");
        md.append("| group | tasks | tasks/s | events/s | MB/s | hashes/s | duration p50 | p90 | p99 | max (ms) |\n");
        md.append("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        row(md, "all", overall);
        figures.byKind().forEach((kind, g) -> row(md, kind, g));
        figures.byPlatform().forEach((platform, g) -> row(md, platform, g));

        md.append("\n## Latency percentiles, all tasks (ms, nearest rank)\n\n");
        md.append("| measure | n | p50 | p90 | p95 | p99 | p99.9 | max |\n|---|---:|---:|---:|---:|---:|---:|---:|\n");
        overall.latency().byMeasure().forEach((name, stats) -> {
            md.append("| ").append(name).append(" | ").append(stats.count());
            for (String p : List.of("p50", "p90", "p95", "p99", "p99.9", "max")) {
                md.append(" | ").append(dash(stats.at(p)));
            }
            md.append(" |\n");
        });
        if (figures.latencyDefinitions() != null) {
            RunFigures.LatencyDefinitions d = figures.latencyDefinitions();
            md.append("\ntaskDurationMs: ").append(d.taskDurationMs()).append("; queueWaitMs: ").append(d.queueWaitMs())
                    .append("; endToEndMs: ").append(d.endToEndMs()).append(".\n");
        }
        RunFigures.DynamoDbWrites dynamo = overall.dynamoDb();
        RunFigures.ColdStarts cold = overall.coldStarts();
        md.append("\nCold starts: ").append(coldStartSentence(cold)).append(".")
                .append(" DynamoDB writes: ").append(dynamo.writeCallsPerTask()).append(" calls per task, mean ")
                .append(dynamo.meanWriteMs()).append(" ms, slowest ").append(dynamo.slowestWriteMs()).append(" ms.\n");

        if (figures.dynamoDbCalls() != null) dynamoDbCalls(md, figures.dynamoDbCalls());
        platforms(md, figures.byPlatform());
        if (report.cost() != null) cost(md, report.cost());

        if (!figures.countBy().isEmpty()) {
            md.append("\n## Events by field\n");
            figures.countBy().forEach((path, values) -> {
                md.append("\n| ").append(text(path)).append(" | events |\n|---|---:|\n");
                values.forEach((value, n) -> md.append("| ").append(text(value)).append(" | ").append(n).append(" |\n"));
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

    /** "2 of 5 worker invocations (share 0.4), one init each", or a per-task report's "7 tasks (share 0.5)". */
    static String coldStartSentence(RunFigures.ColdStarts cold) {
        if (!cold.perInvocation()) return cold.tasks() + " tasks (share " + cold.share() + ")";
        return cold.coldInvocations() + " of " + cold.invocations() + " worker invocations (share " + cold.share() + ")"
                + (cold.coldInvocations() > 0 ? ", one init each" : "");
    }

    /** "2/5 (0.4)": cold invocations of invocations; a per-task report's "7 (0.5)" is tasks. */
    static String coldStartCell(RunFigures.ColdStarts cold) {
        if (!cold.perInvocation()) return cold.tasks() + " (" + cold.share() + ")";
        return cold.coldInvocations() + "/" + cold.invocations() + " (" + cold.share() + ")";
    }

    private static void dynamoDbCalls(StringBuilder md, RunFigures.DynamoDbCalls calls) {
        md.append("\n## DynamoDB calls from the workers (ms, nearest rank)\n\n");
        md.append("| call | count | p50 | p99 | max |\n|---|---:|---:|---:|---:|\n");
        calls.byCall().forEach((call, c) -> md.append("| ").append(call).append(" | ").append(c.count()).append(" | ").append(c.p50Ms())
                .append(" | ").append(c.p99Ms()).append(" | ").append(c.maxMs()).append(" |\n"));
        md.append("\n").append(text(calls.definition())).append(".\n");
    }

    private static void platforms(StringBuilder md, Map<String, RunFigures.Group> byPlatform) {
        md.append("\n## Platforms (architecture / memory)\n\n");
        md.append("| platform | tasks | cold starts | init p50 (ms) | threads seen | vCPU shares seen | queue wait p99 | end to end p99 (ms) |\n");
        md.append("|---|---:|---:|---:|---|---|---:|---:|\n");
        byPlatform.forEach((platform, g) -> {
            RunFigures.ColdStarts cold = g.coldStarts();
            md.append("| ").append(text(platform)).append(" | ").append(g.tasks())
                    .append(" | ").append(coldStartCell(cold))
                    .append(" | ").append(dash(cold.initMs().p50()))
                    .append(" | ").append(g.workers().threadsSeen())
                    .append(" | ").append(g.workers().vcpuSharesSeen())
                    .append(" | ").append(dash(g.latency().queueWaitMs().p99()))
                    .append(" | ").append(dash(g.latency().endToEndMs().p99())).append(" |\n");
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
                .append(durations.fromReportLines()).append(" invocations billed from REPORT lines, ")
                .append(durations.fromTaskRecords()).append(" measured from task records.");
        List<String> peaks = memoryPeaks(cost);
        if (!peaks.isEmpty()) md.append(" Max Memory Used (REPORT lines): ").append(text(String.join("; ", peaks))).append(".");
        md.append("\n\n");
        md.append("| service | item | quantity | unit | unit price | cost | how |\n|---|---|---:|---|---:|---:|---|\n");
        for (CostReport.Line line : cost.lines()) {
            md.append("| ").append(line.service()).append(" | ").append(text(line.item()))
                    .append(" | ").append(plain(line.quantity())).append(" | ").append(line.unit())
                    .append(" | ").append(plain(line.unitPrice())).append(" | ").append(plain(line.cost()))
                    .append(" | ").append(text(line.formula())).append(" |\n");
        }
        md.append("| **total per run** | | | | | **").append(plain(cost.total())).append("** | |\n\n");
        md.append("Per million tasks: ").append(plain(cost.perMillionTasks())).append(".");
        cost.byKind().forEach((kind, k) -> {
            md.append(" ").append(kind).append(": ").append(plain(k.cost())).append(" (share ").append(plain(k.share()))
                    .append(" of task time)");
            if (k.perGbScanned() != null) md.append(", ").append(plain(k.perGbScanned())).append(" per GB scanned");
            if (k.perThousandHashes() != null) md.append(", ").append(plain(k.perThousandHashes())).append(" per thousand hashes");
            md.append(".");
        });
        md.append("\n\n### By architecture\n\n");
        md.append("| architecture | basis | GB-s | Lambda compute | ").append(initColumn(cost))
                .append(" | requests | other services | total per run | per million tasks |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|\n");
        List<String> assumptions = new ArrayList<>();
        cost.byArchitecture().byArchitecture().forEach((architecture, a) -> {
            md.append("| ").append(architecture).append(" | ").append(a.basis()).append(" | ").append(plain(a.gbSeconds()))
                    .append(" | ").append(plain(a.lambdaCompute())).append(" | ").append(plain(a.lambdaInit()))
                    .append(" | ").append(plain(a.lambdaRequests())).append(" | ").append(plain(a.otherServices()))
                    .append(" | ").append(plain(a.total())).append(" | ").append(plain(a.perMillionTasks())).append(" |\n");
            if (a.assumption() != null) assumptions.add(architecture + ": " + a.assumption());
        });
        for (String assumption : assumptions) md.append("\n- ").append(assumption);
        CostReport.Monthly monthly = cost.monthly();
        md.append("\n\n### Monthly projection at ").append(monthly.runsPerMonth()).append(" runs a month\n\n");
        md.append("| architecture | GB-s | Lambda compute (volume tiers) | requests | other services | total |\n|---|---:|---:|---:|---:|---:|\n");
        monthly.byArchitecture().forEach((architecture, m) -> md.append("| ").append(architecture).append(" | ").append(plain(m.gbSeconds()))
                .append(" | ").append(plain(m.lambdaCompute())).append(" | ").append(plain(m.lambdaRequests()))
                .append(" | ").append(plain(m.otherServices())).append(" | ").append(plain(m.total())).append(" |\n"));
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
        md.append("| ").append(text(name)).append(" | ").append(g.tasks())
                .append(" | ").append(t.tasksPerSecond()).append(" | ").append(t.eventsPerSecond())
                .append(" | ").append(t.uncompressedMBPerSecond()).append(" | ").append(t.hashesPerSecond())
                .append(" | ").append(dash(d.p50())).append(" | ").append(dash(d.at("p90")))
                .append(" | ").append(dash(d.p99())).append(" | ").append(dash(d.max())).append(" |\n");
    }
}
