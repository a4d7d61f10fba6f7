package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.report.ReportFixtures;
import batchpipe.aggregator.report.ShownPrecisionTest;
import batchpipe.aggregator.stats.RunFigures;
import batchpipe.common.json.Json;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonReportTest {
    /** Real runs of the local stack, which the aggregator's golden tests keep. */
    private static final Path GOLDEN = Path.of("../aggregator/src/test/resources/golden");

    /** Report A as read back from report.json, and B with every task twice as slow and a different label. */
    private static Report a() {
        return Report.fromJson(Json.writePretty(ReportFixtures.report("x86 run").report()), "a/report.json");
    }

    private static Report b() {
        List<TaskRecord> slower = ReportFixtures.tasks().stream().map(t -> {
            long duration = t.durationMs() * 2;
            return t.toBuilder().finishedAt(t.startedAt() + duration).durationMs(duration).build();
        }).toList();
        Report report = RunReport.of("r2", ReportFixtures.run("arm run"), slower, PriceTable.defaults(),
                ReportInputs.withoutReportLines(CostAssumptions.defaults())).report();
        return Report.fromJson(Json.writePretty(report), "b/report.json");
    }

    /** {@code report} with another run id and label, as a report.json someone edited might say. */
    private static Report relabelled(Report report, String runId, String label) {
        RunFigures f = report.figures();
        return new Report(new RunFigures(runId, label, f.planned(), f.status(), f.window(), f.latencyDefinitions(), f.overall(), f.byKind(), f.byPlatform(),
                f.timeline(), f.distribution(), f.countBy(), f.countByAccuracy(), f.problems(), f.failureTolerance()), report.cost(),
                report.inputs());
    }

    private static ComparisonReport.Row row(List<ComparisonReport.Row> rows, String metric) {
        return rows.stream().filter(r -> r.metric().equals(metric)).findFirst().orElseThrow();
    }

    @Test
    void rows_giveTheDifferenceAndRatioOfEachPercentile() {
        List<ComparisonReport.Row> rows = ComparisonReport.rows(a(), b());

        // durations 500, 1,000, 2,000 against 1,000, 2,000, 4,000
        ComparisonReport.Row p50 = row(rows, "taskDurationMs p50");
        assertThat(p50.a()).isEqualTo(1_000L);
        assertThat(p50.b()).isEqualTo(2_000L);
        assertThat(p50.delta()).isEqualByComparingTo("1000");
        assertThat(p50.ratio()).isEqualByComparingTo("2");
        assertThat(row(rows, "taskDurationMs max").delta()).isEqualByComparingTo("2000");
        assertThat(row(rows, "label")).satisfies(r -> {
            assertThat(r.a()).isEqualTo("x86 run");
            assertThat(r.b()).isEqualTo("arm run");
            assertThat(r.delta()).isNull();
        });
    }

    @Test
    void rows_compareThroughputAndCost() {
        Report a = a();
        Report b = b();

        List<ComparisonReport.Row> rows = ComparisonReport.rows(a, b);

        ComparisonReport.Row total = row(rows, "total per run");
        BigDecimal ta = a.cost().total();
        BigDecimal tb = b.cost().total();
        assertThat(total.delta()).isEqualByComparingTo(tb.subtract(ta));
        assertThat(tb).isGreaterThan(ta);
        // the window grows from 3 s to 5 s: 3 tasks / 3 s = 1.0 against 3 / 5 s = 0.6
        ComparisonReport.Row tasksPerSecond = row(rows, "tasksPerSecond");
        assertThat(tasksPerSecond.ratio()).isEqualByComparingTo("0.6");
        assertThat(row(rows, "whole run on arm64 (projected / projected)").a()).isNotNull();
    }

    @Test
    void markdown_isOneTableRowPerFigure() {
        String md = ComparisonReport.markdown(a(), b());

        assertThat(md).startsWith("# Batchpipe runs compared\n\nA: r1  \nB: r2\n\n| section | figure | A | B | B − A | B ÷ A |\n")
                .contains("| latency | taskDurationMs p50 | 1 s | 2 s | +1 s | 2 |\n")
                .contains("| run | label | x86 run | arm run | – | – |\n");
    }

    @Test
    void markdown_escapesLabelsAndRunIdsFromTheReports() {
        Report a = relabelled(a(), "<script>x</script>", "x86 run");
        Report b = relabelled(b(), "r2", "a\n| FORGED | 999 | [x](javascript:y)");

        String md = ComparisonReport.markdown(a, b);

        assertThat(md).contains("A: &lt;script&gt;x&lt;/script&gt;  \n")
                .contains("| run | label | x86 run | a\\u000a\\| FORGED \\| 999 \\| \\[x\\](javascript:y) | – | – |\n")
                .doesNotContain("<script", "\n| FORGED");
    }

    @Test
    void html_isSelfContainedWithBothDistributionsAndTheCostChart() {
        String html = ComparisonReport.html(a(), b());

        assertThat(html).contains("<svg id=\"comparison-latency-cdf\"", "<svg id=\"comparison-cost-chart\"", "<table id=\"comparison\"")
                .contains("<title>A task duration</title>", "<title>B task duration</title>")
                .doesNotContain("<script");
    }

    @Test
    void html_drawsRunAInOneColourAndRunBInItsPairWithTheMeasureDashed() {
        String html = ComparisonReport.html(a(), b());

        String a = ComparisonReport.COLOUR_A, b = ComparisonReport.COLOUR_B;
        assertThat(a).isNotEqualTo(b);
        assertThat(html).contains("stroke=\"" + a + "\" d=\"", "stroke=\"" + a + "\" stroke-dasharray=\"7 4\" d=\"")
                .contains("stroke=\"" + b + "\" d=\"", "stroke=\"" + b + "\" stroke-dasharray=\"7 4\" d=\"");
        // every bar of run A's rows in A's colour, of B's in B's
        assertThat(html).contains("fill=\"" + a + "\"><title>A arm64").contains("fill=\"" + b + "\"><title>B arm64")
                .doesNotContain("fill=\"" + b + "\"><title>A ", "fill=\"" + a + "\"><title>B ");
    }

    /** The figures rule of the report pages ({@link ShownPrecisionTest}), on the comparison of the two golden runs. */
    @Test
    void theComparisonOfTwoRealRunsShowsNoFigureBeyondFourSignificantDigits() throws IOException {
        Report a = golden("golden-1"), b = golden("golden-2");

        assertThat(ShownPrecisionTest.overPrecise(ComparisonReport.markdown(a, b), a, b)).isEmpty();
        assertThat(ShownPrecisionTest.overPrecise(ShownPrecisionTest.visibleText(ComparisonReport.html(a, b)), a, b)).isEmpty();
    }

    private static Report golden(String runId) throws IOException {
        Path file = GOLDEN.resolve(runId).resolve("expected").resolve("report.json");
        return Report.fromJson(Files.readString(file, StandardCharsets.UTF_8), file.toString());
    }
}
