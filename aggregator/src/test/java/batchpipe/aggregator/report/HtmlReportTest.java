package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.common.json.Json;
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
        // three latency curves, stacked throughput bars, and one cost bar per architecture
        assertThat(count(html, "<path class=\"curve\"")).isEqualTo(3);
        assertThat(html).contains("<title>task duration</title>", "<title>queue wait</title>", "<title>end to end</title>");
        assertThat(html).contains(">arm64 (projected)</text>", ">x86_64 (measured)</text>");
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
        assertThat(html).contains("<tr><td>all</td><td>taskDurationMs</td><td class=\"n\">3</td><td class=\"n\">1000</td>");
        assertThat(html).contains(MarkdownReport.plain(report.cost().total()));
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

    private static int count(String text, String needle) {
        int n = 0;
        for (int i = text.indexOf(needle); i >= 0; i = text.indexOf(needle, i + 1)) n++;
        return n;
    }
}
