package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.report.ReportFixtures;
import batchpipe.local.report.RunHistory.Figure;
import batchpipe.local.report.RunHistory.Flag;
import batchpipe.local.report.RunHistory.JudgedRun;
import batchpipe.local.report.RunHistory.RunPoint;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.io.InputStream;
import java.math.BigDecimal;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Runs whose flags are known by hand: each is judged against the median of the runs of its label just
 * before it, and flagged only above the threshold.
 */
class RunHistoryTest {
    private static final BigDecimal TWENTY = new BigDecimal("20");

    /** A run started at {@code minute} minutes with a cost per million tasks and a p99 task duration; the other figures fixed. */
    private static RunPoint run(String id, String label, int minute, String costPerMillion, long p99Ms) {
        return new RunPoint(id, label, minute * 60_000L, new BigDecimal(costPerMillion), p99Ms / 2, p99Ms, 3.5, 40, 0, 0.25, true);
    }

    private static List<RunPoint> steady(String label, int count) {
        List<RunPoint> runs = new ArrayList<>();
        // costs 10, 12, 11, 9, 10 (median 10); p99 100, 90, 110, 100, 95 (median 100)
        String[] costs = {"10", "12", "11", "9", "10"};
        long[] p99s = {100, 90, 110, 100, 95};
        for (int i = 0; i < count; i++) runs.add(run(label + "-" + i, label, i, costs[i % 5], p99s[i % 5]));
        return runs;
    }

    @Test
    void judge_flagsTheRunWhoseP99IsAboveTheBaselineMedianByMoreThanTheThreshold() {
        List<RunPoint> runs = new ArrayList<>(steady("nightly", 5));
        runs.add(run("slow", "nightly", 10, "11", 121)); // p99 121 > 100 × 1.2; cost 11 is 10% over 10

        RunHistory history = RunHistory.judge(runs, 5, TWENTY, 20, "nightly", "out");

        assertThat(history.flagged()).extracting(j -> j.run().runId()).containsExactly("slow");
        JudgedRun slow = history.runs().get(5);
        assertThat(slow.baselineRunIds()).containsExactly("nightly-0", "nightly-1", "nightly-2", "nightly-3", "nightly-4");
        assertThat(slow.flags()).hasSize(1);
        Flag flag = slow.flags().get(0);
        assertThat(flag.figure()).isEqualTo(Figure.P99_TASK_DURATION);
        assertThat(flag.value()).isEqualByComparingTo("121");
        assertThat(flag.baselineMedian()).isEqualByComparingTo("100");
        assertThat(flag.percentWorse()).isEqualByComparingTo("21");
    }

    @Test
    void judge_aRunExactlyAtTheThresholdIsNotFlaggedAndOneUnitAboveIs() {
        List<RunPoint> at = new ArrayList<>(steady("n", 5));
        at.add(run("at", "n", 10, "12", 120)); // both exactly 20% over the medians 10 and 100
        List<RunPoint> above = new ArrayList<>(steady("n", 5));
        above.add(run("above", "n", 10, "12.000001", 121));

        assertThat(RunHistory.judge(at, 5, TWENTY, 20, null, "out").flagged()).isEmpty();
        JudgedRun judged = RunHistory.judge(above, 5, TWENTY, 20, null, "out").runs().get(5);
        assertThat(judged.flags()).extracting(Flag::figure).containsExactly(Figure.COST_PER_MILLION_TASKS, Figure.P99_TASK_DURATION);
        assertThat(judged.flags().get(0).percentWorse()).isEqualByComparingTo("20.00001");
    }

    @Test
    void judge_runsWithFewerThanTheBaselineCountBeforeThemAreNotJudgedHoweverSlow() {
        List<RunPoint> runs = List.of(run("a", "n", 0, "10", 100), run("b", "n", 1, "100", 1_000), run("c", "n", 2, "10", 100));

        RunHistory history = RunHistory.judge(runs, 3, TWENTY, 20, null, "out");

        assertThat(history.runs()).extracting(JudgedRun::judged).containsExactly(false, false, false);
        assertThat(history.runs().get(2).baselineRunIds()).containsExactly("a", "b");
        assertThat(history.flagged()).isEmpty();
    }

    @Test
    void judge_comparesEachRunWithTheRunsOfItsOwnLabelOnly() {
        // Interleaved in time: "fast" runs cost 1 and take 10 ms, "slow" runs cost 50 and take 900 ms. Judged together every
        // slow run would be a regression; each label judged on its own, only the last fast run (cost 2, p99 10) is.
        List<RunPoint> runs = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            runs.add(run("fast-" + i, "fast", 2 * i, "1", 10));
            runs.add(run("slow-" + i, "slow", 2 * i + 1, "50", 900));
        }
        runs.add(run("fast-4", "fast", 20, "2", 10));
        runs.add(run("slow-4", "slow", 21, "50", 900));

        RunHistory history = RunHistory.judge(runs, 3, TWENTY, 20, null, "out");

        assertThat(history.flagged()).extracting(j -> j.run().runId()).containsExactly("fast-4");
        assertThat(history.flagged().get(0).baselineRunIds()).containsExactly("fast-1", "fast-2", "fast-3");
        assertThat(history.flagged().get(0).flags()).extracting(Flag::figure).containsExactly(Figure.COST_PER_MILLION_TASKS);
        assertThat(history.runs()).filteredOn(JudgedRun::judged).extracting(j -> j.run().runId())
                .containsExactly("fast-3", "slow-3", "fast-4", "slow-4");
    }

    @Test
    void judge_ordersByStartTimeAndKeepsTheLastNWhoseBaselineMayBeOlder() {
        List<RunPoint> runs = new ArrayList<>(steady("n", 5));
        runs.add(run("slow", "n", 10, "10", 500));
        java.util.Collections.reverse(runs);

        RunHistory history = RunHistory.judge(runs, 5, TWENTY, 2, "n", "out");

        assertThat(history.runs()).extracting(j -> j.run().runId()).containsExactly("n-4", "slow");
        assertThat(history.consideredRuns()).isEqualTo(6);
        assertThat(history.runs().get(1).flagged()).isTrue();
    }

    @Test
    void median_ofAnEvenCountIsTheMeanOfTheTwoMiddleValues() {
        List<RunPoint> runs = List.of(run("a", null, 0, "10", 100), run("b", null, 1, "20", 100), run("c", null, 2, "40", 100),
                run("d", null, 3, "30", 100), run("e", null, 4, "30.5", 100));

        // baseline of 4 before e: 10, 20, 40, 30 → median 25; 30.5 is 22% above it
        JudgedRun e = RunHistory.judge(runs, 4, TWENTY, 20, null, "out").runs().get(4);

        assertThat(e.flags()).singleElement().satisfies(flag -> {
            assertThat(flag.baselineMedian()).isEqualByComparingTo("25");
            assertThat(flag.percentWorse()).isEqualByComparingTo("22");
        });
    }

    @Test
    void judge_aFigureTheRunLacksOrWhoseMedianIsZeroIsNotJudged() {
        List<RunPoint> runs = new ArrayList<>();
        for (int i = 0; i < 3; i++) runs.add(run("z" + i, null, i, "10", 0));
        runs.add(new RunPoint("none", null, 10, null, 1L, 5L, 1, 1, 0, 0, true));

        JudgedRun last = RunHistory.judge(runs, 3, TWENTY, 20, null, "out").runs().get(3);

        assertThat(last.judged()).isTrue();
        assertThat(last.flags()).isEmpty();
    }

    @Test
    void judge_refusesABaselineOrLastBelowOneAndANegativeThreshold() {
        assertThatThrownBy(() -> RunHistory.judge(List.of(), 0, TWENTY, 1, null, "out")).hasMessageContaining("baseline must be at least 1");
        assertThatThrownBy(() -> RunHistory.judge(List.of(), 1, TWENTY, 0, null, "out")).hasMessageContaining("last must be at least 1");
        assertThatThrownBy(() -> RunHistory.judge(List.of(), 1, new BigDecimal("-1"), 1, null, "out"))
                .hasMessageContaining("regression must be at least 0%");
    }

    @Test
    void runPoint_readsAReportJsonWrittenBeforeColdStartsWereCountedPerInvocation() throws IOException {
        Report old = Report.fromJson(resource("/golden/golden-1/written-by-b2163fc/report.json"), "golden-1 (b2163fc)");
        Report now = Report.fromJson(resource("/golden/golden-1/expected/report.json"), "golden-1");

        RunPoint before = RunPoint.of(old);
        RunPoint after = RunPoint.of(now);

        assertThat(before.coldStartsPerInvocation()).isFalse();
        assertThat(after.coldStartsPerInvocation()).isTrue();
        assertThat(before.runId()).isEqualTo(after.runId());
        assertThat(before.costPerMillionTasks()).isEqualTo(old.cost().perMillionTasks());
        assertThat(before.p99TaskDurationMs()).isEqualTo(old.figures().overall().latency().taskDurationMs().p99());
        assertThat(before.startedAt()).isEqualTo(old.figures().window().start());
        assertThat(before.tasks()).isEqualTo(old.figures().overall().tasks());
    }

    @Test
    void runPoint_countsFailedAndRejectedTasksAsFailures() {
        Report report = ReportFixtures.report("demo").report();
        var byStatus = new java.util.TreeMap<>(report.figures().overall().byStatus());
        byStatus.put("failed", 2L);
        byStatus.put("rejected", 1L);
        var overall = report.figures().overall();
        var figures = report.figures();
        var changed = new batchpipe.aggregator.stats.RunFigures(figures.runId(), figures.label(), figures.planned(), figures.status(),
                figures.window(), figures.latencyDefinitions(), new batchpipe.aggregator.stats.RunFigures.Group(overall.tasks(), byStatus,
                overall.totals(), overall.throughput(), overall.latency(), overall.coldStarts(), overall.dynamoDb(), overall.workers()),
                figures.byKind(), figures.byPlatform(), figures.timeline(), figures.distribution(), figures.countBy(), figures.countByAccuracy(),
                figures.problems(), figures.failureTolerance(), figures.dynamoDbCalls());

        assertThat(RunPoint.of(new Report(changed, report.cost(), null)).failures()).isEqualTo(3);
        assertThat(RunPoint.of(report).failures()).isZero();
        assertThat(RunPoint.of(report).label()).isEqualTo("demo");
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = RunHistoryTest.class.getResourceAsStream(name)) {
            assertThat(in).as(name).isNotNull();
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
