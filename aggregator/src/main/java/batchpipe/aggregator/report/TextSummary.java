package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.cost.CostReport;
import batchpipe.aggregator.stats.Percentiles;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.text.ControlCharacters;
import batchpipe.report.Display;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

/**
 * The report's figures as the lines of a terminal summary (the demo's, `run --wait`'s), shown as the
 * pages show them ({@link Display}); text from outside the code is escaped for a terminal.
 */
public final class TextSummary {
    private TextSummary() {
    }

    /** Indented lines, without line ends: where it ran, totals, throughput, task duration and cost. */
    public static List<String> lines(Report report) {
        RunFigures figures = report.figures();
        RunFigures.Group overall = figures.overall();
        RunFigures.Totals totals = overall.totals();
        RunFigures.Throughput throughput = overall.throughput();
        List<String> lines = new ArrayList<>();
        if (figures.host() != null) lines.add("  " + ControlCharacters.escape(MarkdownReport.hostSentence(figures.host())));
        lines.add("  events processed: " + Display.count(totals.events()) + " (malformed lines: " + Display.count(totals.malformed()) + "), "
                + Display.bytes(totals.bytes()) + " uncompressed from " + Display.bytes(totals.compressedBytes()) + " compressed");
        lines.add("  hashes processed: " + Display.count(totals.hashes()));
        lines.add("  throughput: " + Display.rate(throughput.tasksPerSecond()) + " tasks/s, " + Display.rate(throughput.eventsPerSecond())
                + " events/s, " + Display.rate(throughput.uncompressedMBPerSecond()) + " MB/s, " + Display.rate(throughput.hashesPerSecond())
                + " hashes/s");
        Percentiles.Summary duration = overall.latency().taskDurationMs();
        lines.add("  task duration: p50 " + MarkdownReport.percentile(duration, "p50") + ", p99 " + MarkdownReport.percentile(duration, "p99")
                + ", max " + MarkdownReport.percentile(duration, "max") + " (of " + Display.count(duration.count()) + " tasks"
                + (MarkdownReport.tooSmallFor("p99", duration.count()) ? "; " + MarkdownReport.SMALL_SAMPLE_MARK + " too few for a p99" : "")
                + ")");
        lines.add("  cold starts: " + MarkdownReport.coldStartSentence(overall.coldStarts()));
        CostReport cost = report.cost();
        if (cost != null) {
            StringBuilder line = new StringBuilder("  cost: ").append(Display.usd(cost.total())).append(" per run, ")
                    .append(Display.usd(cost.perMillionTasks())).append(" per million tasks");
            if (!"USD".equals(cost.currency())) line.append(" (").append(ControlCharacters.escape(cost.currency())).append(")");
            CostReport.Scenario arm64 = cost.byArchitecture().byArchitecture().get("arm64");
            CostReport.Scenario x86 = cost.byArchitecture().byArchitecture().get("x86_64");
            if (arm64 != null && x86 != null) {
                line.append("; whole run on arm64 ").append(amountWithProjection(arm64.total(), arm64))
                        .append(", on x86_64 ").append(amountWithProjection(x86.total(), x86));
            }
            lines.add(line.append(" (see report.md)").toString());
        }
        return lines;
    }

    private static String amountWithProjection(BigDecimal amount, CostReport.Scenario scenario) {
        return MarkdownReport.projectedAmount(amount, scenario);
    }
}
