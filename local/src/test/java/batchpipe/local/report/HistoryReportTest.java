package batchpipe.local.report;

import batchpipe.local.report.RunHistory.RunPoint;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The history page: the flag said in words, each run a row with its figures written for people, labels escaped. */
class HistoryReportTest {
    private static RunHistory history(String lastLabel) {
        List<RunPoint> runs = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            runs.add(new RunPoint("r" + i, lastLabel, 1_764_547_200_000L + i * 60_000L, new BigDecimal("13.2098"), 480L, 1_000L + 10 * i, 3.14159,
                    12_345, 0, 0.25, true));
        }
        runs.add(new RunPoint("r5", lastLabel, 1_764_547_200_000L + 600_000L, new BigDecimal("13.5"), 1_900L, 4_012L, 0.81234, 12_345, 2,
                0.5, false));
        return RunHistory.judge(runs, 5, new BigDecimal("20"), 20, lastLabel, "out/");
    }

    @Test
    void markdown_saysWhichFigureOfWhichRunIsHowFarAboveWhichMedian() {
        String md = HistoryReport.markdown(history("nightly"));

        assertThat(md).startsWith("# Batchpipe run history\n\n6 runs of label \"nightly\", oldest first, from the report.json of each run folder in out/.\n")
                .contains("- Run r5 (nightly): p99 task duration 4.012 s is 293.3% above the baseline median 1.02 s of runs r0, r1, r2, r3, r4.\n")
                .doesNotContain("cost per million tasks $13.5 is");
        assertThat(md.lines().filter(l -> l.startsWith("| ")).toList())
                .contains("| 1 | r0 | 2025-12-01 00:00:00 | 12,345 | $13.21 | 480 ms | 1 s | 3.142 | 0 | 25% |"
                                + " not judged (0 of 5 runs before) |",
                        "| 6 | r5 | 2025-12-01 00:10:00 | 12,345 | $13.5 | 1.9 s | 4.012 s | 0.8123 | 2 | 50% of tasks | flagged: p99 |");
    }

    @Test
    void markdown_ofEveryLabel_hasALabelColumn() {
        RunHistory everyLabel = RunHistory.judge(history("nightly").runs().stream().map(RunHistory.JudgedRun::run).toList(), 5,
                new BigDecimal("20"), 20, null, "out/");

        assertThat(HistoryReport.markdown(everyLabel)).contains("6 runs of every label", "| # | run | label | started (UTC) |",
                "| 6 | r5 | nightly | 2025-12-01 00:10:00 |");
    }

    @Test
    void html_keepsTheDateAndTheTimeOfAStartWhole() {
        assertThat(HistoryReport.html(history("nightly"))).contains("<td><span class=\"whole\">2025-12-01</span> <span class=\"whole\">00:10:00</span></td>");
    }

    @Test
    void markdown_withNoRunJudged_saysNoneHadEnoughRunsBefore() {
        RunHistory few = RunHistory.judge(history("n").runs().stream().limit(2).map(RunHistory.JudgedRun::run).toList(), 5,
                new BigDecimal("20"), 20, null, "out");

        assertThat(HistoryReport.markdown(few)).contains("No run shown was judged: none has 5 runs of its label before it.");
    }

    @Test
    void markdownAndHtml_escapeALabelFromAReportJson() {
        String label = "<img src=x onerror=alert(1)>|x\n| forged |";

        String md = HistoryReport.markdown(history(label));
        String html = HistoryReport.html(history(label));

        assertThat(md).doesNotContain("<img", "\n| forged").contains("&lt;img src=x onerror=alert(1)&gt;\\|x\\u000a\\| forged \\|");
        assertThat(html).doesNotContain("<img").contains("&lt;img src=x onerror=alert(1)&gt;");
    }

    @Test
    void html_isSelfContainedWithTheTableAndTheTrendChartsMarkingTheFlaggedRun() {
        String html = HistoryReport.html(history("nightly"));

        assertThat(html).contains("default-src 'none'", "<svg id=\"history-cost\"", "<svg id=\"history-duration\"",
                "<svg id=\"history-throughput\"", "<table id=\"history\">", "<tr class=\"flagged\">", "<li class=\"flag\">Run r5 (nightly)")
                .doesNotContain("href=", "src=", "url(", "@import", "<script");
        // the p99 point of run #6 is the flagged one; the cost chart has none
        assertThat(html.split("class=\"point flagged\"")).hasSize(2);
        assertThat(html).contains("#6, p99 task duration (ms): 4,012 (flagged)");
    }
}
