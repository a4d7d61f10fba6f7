package batchpipe.aggregator.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.stats.RunStatistics;
import batchpipe.common.json.Json;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskStatus;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class MarkdownReportTest {

    private static TaskRecords.Builder task(String taskId, TaskStatus status, long started, long finished, long hashes, String reason) {
        return TaskRecords.task(taskId, "hash").status(status, reason).times(0L, started, finished).hashed(hashes, 4)
                .platform("arm64", 1769);
    }

    private static RunRecord run(String label, String spec) {
        return TaskRecords.run(label, 0, 0, 2, spec);
    }

    /** The figures alone, without a cost. */
    private static Report report(RunRecord run, TaskRecords.Builder... tasks) {
        return new Report(RunStatistics.compute("r1", run, Arrays.stream(tasks).map(TaskRecords.Builder::build).toList()), null, null);
    }

    private static String render() {
        return MarkdownReport.render(report(run("demo", null),
                task("hash-000001", TaskStatus.DONE, 0, 1_000, 10, null),
                task("hash-000002", TaskStatus.REJECTED, 1_000, 2_000, 0, "bad | input")));
    }

    @Test
    void render_startsWithTheRunLabelAndStatus() {
        assertThat(render()).startsWith("# Batchpipe run r1\n\nLabel: demo\n\n"
                + "Status: **complete**, 2 tasks {done=1, rejected=1} in 2 s (last finishedAt - run createdAt).\n\n");
    }

    @Test
    void render_saysWhetherTheRunStayedWithinItsToleratedFailurePercent() {
        Report report = report(run("demo", "{\"toleratedFailurePercent\":40}"),
                task("hash-000001", TaskStatus.DONE, 0, 1_000, 10, null),
                task("hash-000002", TaskStatus.REJECTED, 1_000, 2_000, 0, "bad input"));

        assertThat(MarkdownReport.render(report))
                .contains("Failures: 1 of 2 planned tasks (50%, failed or rejected); tolerated 40%: **tolerance exceeded**.\n\n");
        assertThat(HtmlReport.render(report)).contains("<b>tolerance exceeded</b>");
    }

    @Test
    void render_writesARowPerGroupWithThroughputAndDurations() {
        // 2 tasks and 10 hashes in 2 s; durations 1000 and 1000
        assertThat(render())
                .contains("| all | 2 | 1 | 0 | 0 | 5 | 1 s | 1 s† | 1 s† | 1 s |\n")
                .contains("| hash | 2 | 1 | 0 | 0 | 5 | 1 s | 1 s† | 1 s† | 1 s |\n")
                .contains("| arm64/1769MB | 2 | 1 | 0 | 0 | 5 | 1 s | 1 s† | 1 s† | 1 s |\n");
    }

    @Test
    void render_writesEveryCostLineWithItsFormulaAndTheTotal() {
        String md = MarkdownReport.render(ReportFixtures.report("demo").report());

        assertThat(md).contains("## Cost (USD)\n\nPrices: us-east-1, dated 2025-08-01 (resource batchpipe/aggregator/cost/prices-us-east-1.json)."
                + " Lambda durations: 0 invocations billed from REPORT lines, 2 measured from task records.\n");
        // worker invocations of 1,100 ms (req-1: 1,100 .. 2,200) with its 250 ms of INIT, and 2,000 ms (req-2), at 1,024 MB
        assertThat(md).contains("| Lambda | compute, worker x86_64 1024 MB | 3.350 | GB-s | $0.0000166667 | $0.00005583 |"
                + " 3350 billed ms x 1024 MB / 1,024,000 = 3.35 GB-s x $0.0000166667; of which 250 ms (0.25 GB-s, $0.000004166675)"
                + " started 1 cold instance(s) (INIT) |\n");
        assertThat(md).doesNotContain("| Lambda | INIT,");
        assertThat(md).contains("| Lambda | requests | 2 | requests | $0.0000002 | $0.0000004 | 2 invocations x $0.2 per 1M |\n");
        assertThat(md).contains("| **total per run** |");
        assertThat(md).contains("| arm64 | projected |").contains("| x86_64 | measured |")
                .contains("- arm64: projected: the same billed durations as measured on x86_64");
        assertThat(md).contains("### Monthly projection at 30 runs a month");
    }

    @Test
    void render_listsThreadsAndVcpuSharesPerPlatform() {
        assertThat(MarkdownReport.render(ReportFixtures.report("demo").report()))
                // req-1 (cold, two tasks) and req-2: one cold invocation of two
                .contains("| x86_64/1024MB | 3 | 1/2 (50%) | 250 ms | [1] | [0.58] |");
    }

    @Test
    void render_saysUnderACountByTableThatItsCountsAreApproximate() {
        String md = MarkdownReport.render(ReportFixtures.reportWithApproximateCounts().report());

        assertThat(md).contains("| level | events |\n|---|---:|\n| &lt;script&gt;alert(1)&lt;/script&gt; | 100 |\n| INFO | 900 |\n\n"
                + "Counts approximate (heavy-hitters sketch): each may over-state by up to 1465 events; distinct values estimated.\n");
    }

    @Test
    void render_saysNothingOfAccuracyWhenEveryCountIsExact() {
        assertThat(MarkdownReport.render(ReportFixtures.report("demo").report())).doesNotContain("approximate", "estimated");
    }

    @Test
    void render_escapesPipesInProblemReasons() {
        assertThat(render()).contains("| hash-000002 | rejected | bad \\| input |\n");
    }

    @Test
    void render_escapesHostileCountByValuesLabelsAndReasonsSoEachStaysInItsCell() {
        TaskRecords.Builder done = task("hash-000001", TaskStatus.DONE, 0, 1_000, 10, null)
                .countBy("msg", Map.of("a\n| FORGED | 999 |", 5L, "<script>alert(1)</script>", 1L));
        Report report = report(run("<b>x</b> [y](javascript:z)", null), done,
                task("hash-000002", TaskStatus.FAILED, 1_000, 2_000, 0, "*boom* <img src=x onerror=alert(1)>"));

        String md = MarkdownReport.render(report);

        assertThat(md).contains("Label: &lt;b&gt;x&lt;/b&gt; \\[y\\](javascript:z)\n")
                .contains("| a\\u000a\\| FORGED \\| 999 \\| | 5 |\n")
                .contains("| &lt;script&gt;alert(1)&lt;/script&gt; | 1 |\n")
                .contains("| hash-000002 | failed | \\*boom\\* &lt;img src=x onerror=alert(1)&gt; |\n")
                .doesNotContain("<script", "<img", "<b>", "\n| FORGED");
    }

    @Test
    void render_saysAtTheTopThatALocalRunsDurationsAreThisMachinesNotLambdas() {
        RunHost host = new RunHost("Test CPU @ 2.20GHz", 2, "Vendor 21.0.5+11", "Linux 6.1 amd64", List.of(0.52, 0.61, 1.7), 1_000L);
        RunReport local = RunReport.of("r1", ReportFixtures.run("demo").withHost(host), ReportFixtures.tasks(), PriceTable.defaults(),
                ReportInputs.withoutReportLines(CostAssumptions.defaults()));

        String md = MarkdownReport.render(local.report());
        assertThat(md).startsWith("# Batchpipe run r1\n\n> Local run on Test CPU @ 2.20GHz, 2 cores, JDK Vendor 21.0.5+11, load average"
                + " 0.52, 0.61, 1.7 (1, 5, 15 min) when the run was planned: durations, rates and cold starts are this machine's, not Lambda's;");
        assertThat(HtmlReport.render(local.report())).contains("<p class=\"local-run\" id=\"local-run\">Local run on Test CPU");
        assertThat(TextSummary.lines(local.report()).get(0)).startsWith("  Local run on Test CPU");
        // kept in report.json, and read back from it
        Report readBack = Report.fromJson(Json.writePretty(local.report()), "report.json");
        assertThat(readBack.figures().host()).isEqualTo(local.report().figures().host());
        assertThat(render()).doesNotContain("Local run");
    }

    @Test
    void render_marksPercentilesWhoseSampleIsTooSmallToCarryThem() {
        assertThat(MarkdownReport.tooSmallFor("p99", 99)).isTrue();
        assertThat(MarkdownReport.tooSmallFor("p99", 100)).isFalse();
        assertThat(MarkdownReport.tooSmallFor("p99.9", 999)).isTrue();
        assertThat(MarkdownReport.tooSmallFor("p99.9", 1_000)).isFalse();
        assertThat(MarkdownReport.tooSmallFor("p50", 1)).isFalse();
        assertThat(MarkdownReport.tooSmallFor("max", 1)).isFalse();
        // 3 tasks: p90 and above are marked, the median and the max are not
        String md = MarkdownReport.render(ReportFixtures.report("demo").report());
        assertThat(md).contains("| taskDurationMs | 3 | 1 s | 2 s† | 2 s† | 2 s† | 2 s† | 2 s |").contains(MarkdownReport.SMALL_SAMPLE_NOTE);
    }

}
