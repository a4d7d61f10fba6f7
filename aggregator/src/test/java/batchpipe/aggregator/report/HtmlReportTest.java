package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.common.json.Json;
import batchpipe.common.run.RunRecord;
import batchpipe.report.Display;
import org.junit.jupiter.api.Test;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

class HtmlReportTest {

    private static String render() {
        return HtmlReport.render(ReportFixtures.report("<b>demo</b>").report());
    }

    @Test
    void render_drawsTheThreeChartsAsInlineSvg() {
        String html = render();

        assertThat(html).startsWith("<!DOCTYPE html>")
                .contains("<svg id=\"latency-cdf\"", "<svg id=\"throughput-over-time\"", "<svg id=\"cost-by-architecture-chart\"");
        // three latency curves (on a linear and on a log axis), stacked throughput bars, and one cost bar per architecture
        assertThat(count(html, "<path class=\"curve\"")).isEqualTo(6);
        assertThat(html).contains("<svg id=\"latency-cdf-log\"");
        assertThat(html).contains("<title>task duration</title>", "<title>queue wait</title>", "<title>end to end</title>");
        assertThat(html).contains(">arm64 (projected, equal speed)</text>", ">x86_64 (measured)</text>");
    }

    @Test
    void render_isSelfContainedAndForbidsEveryExternalLoad() {
        String html = render();

        assertThat(html).contains("<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none'; style-src 'unsafe-inline'; img-src data:\">");
        assertThat(html).doesNotContain("<script", "<link", "src=\"http", "href=\"http", "@import", "url(");
        // the only absolute URL is the SVG namespace name, which is never fetched
        Matcher urls = Pattern.compile("https?://[^\"'<> ]+").matcher(html);
        while (urls.find()) assertThat(urls.group()).isEqualTo("http://www.w3.org/2000/svg");
    }

    @Test
    void render_escapesTextFromTheRunAndTheLogs() {
        String html = render();

        assertThat(html).doesNotContain("<script>alert(1)</script>", "<b>demo</b>")
                .contains("&lt;script&gt;alert(1)&lt;/script&gt;", "&lt;b&gt;demo&lt;/b&gt;");
    }

    @Test
    void render_showsTheTablesWithTheReportsOwnFigures() {
        Report report = ReportFixtures.report("demo").report();

        String html = HtmlReport.render(report);

        assertThat(html).contains("<table id=\"latency-table\"", "<table id=\"throughput-table\"", "<table id=\"workers-table\"", "<table id=\"cost-lines\"",
                "<table id=\"cost-by-architecture\"", "<table id=\"monthly\"");
        // task durations 500, 1,000 and 2,000 ms: p50 is 1,000
        assertThat(html).contains("<tr><td>all</td><td>taskDurationMs</td><td class=\"n\">3</td><td class=\"n\">1 s</td>");
        assertThat(html).contains(Display.usd(report.cost().total())).doesNotContain(report.cost().total().toPlainString());
    }

    @Test
    void render_saysUnderACountByTableThatItsCountsAreApproximate() {
        Report report = ReportFixtures.reportWithApproximateCounts().report();

        String html = HtmlReport.render(report);

        assertThat(html).contains("<td>INFO</td><td class=\"n\">900</td></tr></table>\n<p class=\"note\">Counts approximate"
                + " (heavy-hitters sketch): each may over-state by up to 1465 events; distinct values estimated.</p>\n");
        assertThat(HtmlReport.render(Report.fromJson(Json.write(report), "report.json"))).isEqualTo(html);
        assertThat(render()).doesNotContain("approximate", "estimated");
    }

    @Test
    void render_ofAReportReadBackFromItsJsonIsTheSamePage() {
        Report report = ReportFixtures.report("demo").report();

        assertThat(HtmlReport.render(Report.fromJson(Json.writePretty(report), "report.json"))).isEqualTo(HtmlReport.render(report));
    }

    @Test
    void render_offersTheLatencyCdfOnALogAxisWithoutScript() {
        String html = render();

        assertThat(html).contains("<input type=\"radio\" name=\"cdf-scale\" id=\"cdf-scale-log\">", "#cdf-scale-log:checked ~ .cdf-log")
                .doesNotContain("<script");
        // task durations 500, 1,000 and 2,000 ms: powers of ten from 100 to 10,000 on the log axis
        String log = html.substring(html.indexOf("<svg id=\"latency-cdf-log\""));
        log = log.substring(0, log.indexOf("</svg>"));
        assertThat(log).contains(">100</text>", ">1,000</text>", ">10,000</text>");
    }

    @Test
    void render_countsTasksPerBucketAndSaysTheLastBucketIsShorter() {
        // the window is 1,000 .. 4,000 ms: 1 s buckets, the three tasks finish at 1,600, 2,200 and 4,000 ms
        String html = render();
        String chart = html.substring(html.indexOf("<svg id=\"throughput-over-time\""));
        chart = chart.substring(0, chart.indexOf("</svg>"));

        assertThat(chart).contains("Tasks finished per 1 s bucket").contains("tasks finished").doesNotContain("tasks / s");
        assertThat(chart).contains("<title>0 s, scan tasks: 1</title>", "<title>1 s, scan tasks: 1</title>");
    }

    @Test
    void render_saysNextToAProjectedCostThatItAssumesEqualSpeedAndNamesTheRatioOption() {
        String html = render();

        String table = html.substring(html.indexOf("<table id=\"cost-by-architecture\""));
        table = table.substring(0, table.indexOf("</table>"));
        assertThat(table).contains("<span class=\"projected-note\">projected, assuming equal speed</span>").doesNotContain("<th>assumption</th>");
        assertThat(html).contains("--arm64-speed-ratio");
    }


    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
        return n;
    }

    @Test
    void throughputChart_shadesThePlanningPhaseFromRunCreatedToLastTaskSent() {
        RunRecord base = ReportFixtures.run("demo");
        RunRecord sentAfter500Ms = new RunRecord(base.runId(), base.label(), base.spec(), base.planned(), base.hashesPlanned(), base.createdAt(),
                base.status(), base.shards(), base.enqueued(), base.enqueueError(), base.completeShards(), base.completionSentBy(),
                base.completionSentAt(), base.createdAt() + 500);
        Report report = RunReport.of("r1", sentAfter500Ms, ReportFixtures.tasks(), PriceTable.defaults(),
                ReportInputs.withoutReportLines(CostAssumptions.defaults())).report();

        assertThat(HtmlReport.throughputChart(report.figures())).contains("<rect class=\"band\"").contains(">planning 500 ms</text>");
        // a run whose record does not say when sending ended has no planning phase to shade
        assertThat(HtmlReport.throughputChart(ReportFixtures.report("demo").report().figures())).doesNotContain("class=\"band\"");
    }
}
