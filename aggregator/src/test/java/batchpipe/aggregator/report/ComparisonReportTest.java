package batchpipe.aggregator.report;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class ComparisonReportTest {

    /** Report A as read back from report.json, and B with every task twice as slow and a different label. */
    private static Map<String, Object> a() {
        return Json.parseObject(Json.write(ReportFixtures.report("x86 run").report()));
    }

    private static Map<String, Object> b() {
        List<Map<String, Object>> slower = ReportFixtures.tasks().stream().map(t -> {
            Map<String, Object> copy = new HashMap<>(t);
            long started = (Long) t.get("startedAt");
            long duration = (Long) t.get("durationMs") * 2;
            copy.put("durationMs", duration);
            copy.put("finishedAt", started + duration);
            return copy;
        }).toList();
        Map<String, Object> report = batchpipe.aggregator.RunReport.of("r2", ReportFixtures.run("arm run"), slower,
                batchpipe.aggregator.cost.PriceTable.defaults(),
                batchpipe.aggregator.ReportInputs.withoutReportLines(batchpipe.aggregator.cost.CostAssumptions.defaults())).report();
        return Json.parseObject(Json.write(report));
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
        Map<String, Object> a = a();
        Map<String, Object> b = b();

        List<ComparisonReport.Row> rows = ComparisonReport.rows(a, b);

        ComparisonReport.Row total = row(rows, "total per run");
        BigDecimal ta = (BigDecimal) ComparisonReport.get(a, "cost", "total");
        BigDecimal tb = (BigDecimal) ComparisonReport.get(b, "cost", "total");
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
                .contains("| latency (ms) | taskDurationMs p50 | 1000 | 2000 | +1000 | 2 |\n")
                .contains("| run | label | x86 run | arm run | – | – |\n");
    }

    @Test
    void markdown_escapesLabelsAndRunIdsFromTheReports() {
        Map<String, Object> a = a();
        Map<String, Object> b = b();
        a.put("runId", "<script>x</script>");
        b.put("label", "a\n| FORGED | 999 | [x](javascript:y)");

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
}
