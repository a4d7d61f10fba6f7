package batchpipe.local.report;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.TaskRecords;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.common.json.Json;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class SweepReportTest {
    private static final SweepReport.Settings COST = new SweepReport.Settings("sweep-1", "nightly", "cgroup v1 CPU quota", true, "cost", 0.5, null);

    /**
     * A run of two scan and two hash tasks at {@code memoryMb}: task durations shrink in proportion to the
     * vCPU share, times {@code slowdown} (1 = ideal scaling); {@code failHash} fails the second hash task.
     */
    static RunReport run(String runId, int memoryMb, double slowdown, boolean failHash) {
        double k = 1769.0 / memoryMb * slowdown;
        List<TaskRecord> tasks = tasks(runId, memoryMb, slowdown, failHash);
        List<ReportLine> lines = List.of(
                new ReportLine("req-1", "worker", "x86_64", memoryMb, 1_000 * k, (long) Math.ceil(1_000 * k + 300), 300.0),
                new ReportLine("req-2", "worker", "x86_64", memoryMb, 2_400 * k, (long) Math.ceil(2_400 * k), null));
        RunRecord record = new RunRecord(runId, "nightly", "{}", new Planned(2, 2, 4), 20, 1_000, "complete", 1, 4L, null, List.of(), null, null,
                null, null, "sweep-1");
        return RunReport.of(runId, record, tasks, PriceTable.defaults(), new ReportInputs(lines, "test REPORT lines", CostAssumptions.defaults()));
    }

    /** The task records of {@link #run}. */
    static List<TaskRecord> tasks(String runId, int memoryMb, double slowdown, boolean failHash) {
        double k = 1769.0 / memoryMb * slowdown;
        List<TaskRecord> tasks = new ArrayList<>();
        tasks.add(task(runId, "scan-a", "scan", "req-1", 1_000, 400 * k, memoryMb).cold(true, 300L).scanned(1_000, 0, 4_000_000, 1_000_000).build());
        tasks.add(task(runId, "scan-b", "scan", "req-1", 1_000, 600 * k, memoryMb).scanned(2_000, 0, 8_000_000, 2_000_000).build());
        tasks.add(task(runId, "hash-000001", "hash", "req-2", 1_000, 2_000 * k, memoryMb).hashed(10, 10).build());
        TaskRecords.Builder second = task(runId, "hash-000002", "hash", "req-2", 1_000, 2_400 * k, memoryMb).hashed(10, 10);
        if (failHash) second.status(TaskStatus.FAILED, "hashing failed");
        tasks.add(second.build());
        return tasks;
    }

    private static TaskRecords.Builder task(String runId, String taskId, String kind, String requestId, long started, double durationMs, int memoryMb) {
        return TaskRecords.task(taskId, kind).run(runId).times(900L, started, started + Math.round(durationMs)).invocation(requestId, "worker")
                .platform("x86_64", memoryMb).workers((int) Math.ceil(memoryMb / 1769.0), memoryMb / 1769.0).cold(false, null);
    }

    static SweepReport.Measured measured(int memoryMb, double slowdown, boolean failHash) {
        String runId = "sweep-1-x86_64-" + memoryMb;
        RunReport r = run(runId, memoryMb, slowdown, failHash);
        List<Double> rates = new ArrayList<>();
        for (TaskRecord t : tasks(runId, memoryMb, slowdown, failHash)) if (t.hash() != null && t.status() == TaskStatus.DONE) rates.add(t.hash().hashes() * 1000.0 / t.durationMs());
        return new SweepReport.Measured("x86_64-" + memoryMb, "x86_64", memoryMb, 1, Math.round(memoryMb / 1769.0 * 1000) / 1000.0,
                Math.max(1, (int) Math.floor(2 / (memoryMb / 1769.0))), r.summary(),
                new SweepReport.CpuEvidence("q", 100, memoryMb < 1769 ? 40 : 0, 0.5, 1, List.of(1L)), rates);
    }

    /** Four memory sizes; 3538 MB scales worse than ideal, so it is the dearest. */
    static List<SweepReport.Outcome> fourSizes() {
        return List.of(measured(885, 1.0, false), measured(1769, 1.0, false), measured(2654, 1.05, false), measured(3538, 1.2, false),
                new SweepReport.NotRun("x86_64-5307", "x86_64", 5307, 1, 3.0, SweepReport.BEYOND_THIS_MACHINE, "3.00 vCPUs is more than this machine's 2 cores"),
                new SweepReport.NotRun("arm64-885", "arm64", 885, 1, 0.5, SweepReport.NOT_MEASURABLE_HERE, "this machine is x86_64"));
    }

    @Test
    void everyFigureOfTheSweepEqualsThePerConfigurationRunReports() {
        List<SweepReport.Outcome> outcomes = fourSizes();
        SweepReport sweep = SweepReport.of(COST, outcomes);
        // Read back as the files are: sweep.json and each run's report.json, compared as JSON documents.
        Map<String, Object> sweepJson = Json.parseObject(SweepDocuments.render(sweep).get("sweep.json"));
        Map<String, Map<String, Object>> reports = new LinkedHashMap<>();
        Map<String, List<Double>> rates = new LinkedHashMap<>();
        for (SweepReport.Outcome o : outcomes) {
            if (o instanceof SweepReport.Measured m) {
                Report roundTrip = Report.fromJson(Json.write(m.report()), "report.json");
                reports.put(m.report().runId(), Json.parseObject(Json.write(roundTrip)));
                rates.put(m.report().runId(), m.hashRates());
            }
        }
        List<Map<String, Object>> configurations = list(sweepJson.get("configurations"));
        assertThat(configurations).hasSize(6);
        Map<String, Double> baseP50 = new LinkedHashMap<>();
        for (Map<String, Object> c : configurations) {
            if (c.get("runId") == null) {
                assertThat(c.get("status")).isIn(SweepReport.BEYOND_THIS_MACHINE, SweepReport.NOT_MEASURABLE_HERE);
                continue;
            }
            Map<String, Object> report = reports.get((String) c.get("runId"));
            Map<String, Object> byKind = map(c.get("byKind"));
            Map<String, Object> reportKinds = new LinkedHashMap<>();
            reportKinds.put("all", report.get("overall"));
            reportKinds.putAll(map(report.get("byKind")));
            assertThat(byKind.keySet()).isEqualTo(reportKinds.keySet());
            for (String kind : byKind.keySet()) {
                Map<String, Object> mine = map(byKind.get(kind));
                Map<String, Object> group = map(reportKinds.get(kind));
                Map<String, Object> duration = map(map(group.get("latency")).get("taskDurationMs"));
                Map<String, Object> throughput = map(group.get("throughput"));
                Map<String, Object> cold = map(group.get("coldStarts"));
                assertThat(num(mine.get("tasks"))).isEqualTo(num(group.get("tasks")));
                assertThat(num(mine.get("notDone"))).isEqualTo(num(group.get("tasks")) - num(map(group.get("byStatus")).getOrDefault("done", 0)));
                assertThat(num(mine.get("p50Ms"))).isEqualTo(num(duration.get("p50")));
                assertThat(num(mine.get("p90Ms"))).isEqualTo(num(duration.get("p90")));
                assertThat(num(mine.get("p99Ms"))).isEqualTo(num(duration.get("p99")));
                assertThat(num(mine.get("tasksPerSecond"))).isEqualTo(num(throughput.get("tasksPerSecond")));
                assertThat(num(mine.get("uncompressedMBPerSecond"))).isEqualTo(num(throughput.get("uncompressedMBPerSecond")));
                assertThat(num(mine.get("hashesPerSecond"))).isEqualTo(num(throughput.get("hashesPerSecond")));
                assertThat(num(mine.get("coldStartShare"))).isEqualTo(num(cold.get("share")));
                Object initP50 = map(cold.get("initMs")).get("p50");
                assertThat(mine.get("initP50Ms") == null ? null : num(mine.get("initP50Ms"))).isEqualTo(initP50 == null ? null : num(initP50));
                // Speedup: the smallest memory size's p50 over this one's, and the share ratio as the ideal.
                double p50 = num(duration.get("p50"));
                baseP50.putIfAbsent(kind, p50);
                assertThat(num(mine.get("speedup"))).isCloseTo(baseP50.get(kind) / p50, within(0.0005));
                assertThat(num(mine.get("idealSpeedup"))).isCloseTo(num(c.get("vcpuShare")) / 0.5, within(0.0005));
            }
            Map<String, Object> cost = map(report.get("cost"));
            Map<String, Object> myCost = map(c.get("cost"));
            assertThat(decimal(myCost.get("perRun"))).isEqualByComparingTo(decimal(cost.get("total")));
            assertThat(decimal(myCost.get("perMillionTasks"))).isEqualByComparingTo(decimal(cost.get("perMillionTasks")));
            assertThat(decimal(myCost.get("perGbScanned"))).isEqualByComparingTo(decimal(map(map(cost.get("byKind")).get("scan")).get("perGbScanned")));
            assertThat(decimal(myCost.get("perThousandHashes"))).isEqualByComparingTo(decimal(map(map(cost.get("byKind")).get("hash")).get("perThousandHashes")));
            List<Double> r = rates.get((String) c.get("runId")).stream().sorted().toList();
            double median = r.size() % 2 == 1 ? r.get(r.size() / 2) : (r.get(r.size() / 2 - 1) + r.get(r.size() / 2)) / 2;
            assertThat(num(c.get("hashRatePerTask"))).isCloseTo(median, within(0.0005));
        }
        // The frontier and the recommendation, by brute force over the reports' costs and p99s.
        List<String> frontier = new ArrayList<>();
        for (Map<String, Object> c : configurations) {
            if (c.get("runId") == null) continue;
            boolean dominated = false;
            for (Map<String, Object> o : configurations) {
                if (o == c || o.get("runId") == null) continue;
                int byCost = decimal(map(o.get("cost")).get("perRun")).compareTo(decimal(map(c.get("cost")).get("perRun")));
                double oP99 = num(map(map(o.get("byKind")).get("all")).get("p99Ms")), cP99 = num(map(map(c.get("byKind")).get("all")).get("p99Ms"));
                if (byCost <= 0 && oP99 <= cP99 && (byCost < 0 || oP99 < cP99)) dominated = true;
            }
            if (!dominated) frontier.add((String) c.get("key"));
        }
        assertThat(((List<?>) sweepJson.get("paretoFrontier")).stream().map(Object::toString).sorted().toList()).isEqualTo(frontier.stream().sorted().toList());
        String cheapest = configurations.stream().filter(c -> c.get("runId") != null)
                .min((a, b) -> decimal(map(a.get("cost")).get("perRun")).compareTo(decimal(map(b.get("cost")).get("perRun")))).orElseThrow().get("key").toString();
        assertThat(map(sweepJson.get("recommendation")).get("key")).isEqualTo(cheapest);
    }

    @Test
    void balanced_minimisesPowerTuningsWeightedSumOfNormalisedCostAndP99() {
        for (double w : new double[] {0.0, 0.5, 1.0}) {
            SweepReport.Settings settings = new SweepReport.Settings("sweep-1", null, "cpu", true, "balanced", w, null);
            SweepReport sweep = SweepReport.of(settings, fourSizes());
            List<SweepReport.Candidate> candidates = SweepReport.candidates(sweep.configurations());
            BigDecimal maxCost = candidates.stream().map(SweepReport.Candidate::cost).max(BigDecimal::compareTo).orElseThrow();
            long maxP99 = candidates.stream().mapToLong(SweepReport.Candidate::p99Ms).max().orElseThrow();
            SweepReport.Candidate best = null;
            double bestValue = Double.MAX_VALUE;
            for (SweepReport.Candidate c : candidates) {
                double value = w * c.cost().doubleValue() / maxCost.doubleValue() + (1 - w) * c.p99Ms() / (double) maxP99;
                if (value < bestValue) {
                    bestValue = value;
                    best = c;
                }
            }
            assertThat(sweep.recommendation().key()).as("weight %s", w).isEqualTo(best.key());
            assertThat(sweep.recommendation().reason()).contains("balanced score");
        }
        // Weight 0 is speed alone: the lowest p99 (3538 MB); weight 1 is cost alone.
        assertThat(SweepReport.of(new SweepReport.Settings("s", null, "cpu", true, "balanced", 0.0, null), fourSizes()).recommendation().key())
                .isEqualTo("x86_64-3538");
        assertThat(SweepReport.of(new SweepReport.Settings("s", null, "cpu", true, "balanced", 1.0, null), fourSizes()).recommendation().key())
                .isEqualTo(SweepReport.of(COST, fourSizes()).recommendation().key());
    }

    @Test
    void speed_picksTheLowestP99() {
        SweepReport sweep = SweepReport.of(new SweepReport.Settings("s", null, "cpu", true, "speed", 0.5, null), fourSizes());
        assertThat(sweep.recommendation().key()).isEqualTo("x86_64-3538");
        assertThat(sweep.recommendation().reason()).contains("lowest p99");
    }

    @Test
    void maxP99_picksTheCheapestWithinTheBudget_andNoneWhenNothingFits() {
        SweepReport all = SweepReport.of(COST, fourSizes());
        long p99At1769 = all.configuration("x86_64-1769").byKind().get("all").p99Ms();
        SweepReport budget = SweepReport.of(new SweepReport.Settings("s", null, "cpu", true, "cost", 0.5, p99At1769), fourSizes());
        List<SweepReport.Candidate> within = SweepReport.candidates(budget.configurations()).stream().filter(c -> c.p99Ms() <= p99At1769).toList();
        String cheapestWithin = within.stream().min((a, b) -> a.cost().compareTo(b.cost())).orElseThrow().key();
        assertThat(budget.recommendation().key()).isEqualTo(cheapestWithin).isNotEqualTo("x86_64-885");
        assertThat(budget.recommendation().reason()).contains("within the " + String.format("%,d", p99At1769) + " ms budget");

        SweepReport none = SweepReport.of(new SweepReport.Settings("s", null, "cpu", true, "cost", 0.5, 1L), fourSizes());
        assertThat(none.recommendation().key()).isNull();
        assertThat(none.recommendation().reason()).startsWith("No recommendation: no configuration kept its p99 within 1 ms");
    }

    @Test
    void aConfigurationWithFailedTasks_isShownFailedAndNeverRecommendedNorOnTheFrontier() {
        // 885 MB is the cheapest, but one of its tasks failed.
        List<SweepReport.Outcome> outcomes = List.of(measured(885, 1.0, true), measured(1769, 1.0, false), measured(3538, 1.2, false));
        SweepReport sweep = SweepReport.of(COST, outcomes);
        SweepReport.Configuration failed = sweep.configuration("x86_64-885");
        assertThat(failed.status()).isEqualTo(SweepReport.FAILED);
        assertThat(failed.note()).contains("1 of 4 tasks did not finish as done");
        assertThat(sweep.recommendation().key()).isEqualTo("x86_64-1769");
        assertThat(sweep.paretoFrontier()).doesNotContain("x86_64-885");
        assertThat(SweepDocuments.markdown(sweep)).contains("| x86_64-885 | 0.500 | failed: 1 of 4 tasks did not finish as done");
    }

    @Test
    void aConfigurationWhoseRunDidNotComplete_isShownFailedWithItsReasonEverywhere_andNeverRecommended() {
        String reason = "did not complete within 60 s: 1 of 4 tasks counted";
        // 885 MB would be the cheapest; its run never completed, so it has no figures at all.
        List<SweepReport.Outcome> outcomes = List.of(new SweepReport.Incomplete("x86_64-885", "x86_64", 885, 1, 0.5, 3, "sweep-1-x86_64-885", reason, null),
                measured(1769, 1.0, false), measured(3538, 1.2, false));
        SweepReport sweep = SweepReport.of(COST, outcomes);

        SweepReport.Configuration incomplete = sweep.configuration("x86_64-885");
        assertThat(incomplete.status()).isEqualTo(SweepReport.FAILED);
        assertThat(incomplete.note()).isEqualTo(reason);
        assertThat(incomplete.runId()).isEqualTo("sweep-1-x86_64-885");
        assertThat(incomplete.measured()).isFalse();
        assertThat(sweep.recommendation().key()).isEqualTo("x86_64-1769");
        assertThat(sweep.paretoFrontier()).doesNotContain("x86_64-885");
        // The speedups are over the smallest memory size that has figures.
        assertThat(sweep.configuration("x86_64-1769").byKind().get("all").speedup()).isEqualTo(1.0);

        Map<String, String> files = SweepDocuments.render(sweep);
        Map<String, Object> json = list(Json.parseObject(files.get("sweep.json")).get("configurations")).get(0);
        assertThat(json).containsEntry("status", "failed").containsEntry("note", reason).containsEntry("runId", "sweep-1-x86_64-885");
        assertThat(files.get("sweep.md")).contains("| x86_64-885 | 0.500 | failed: " + reason + " | `sweep-1-x86_64-885` |");
        assertThat(files.get("sweep.html")).contains("<td>failed</td><td><code>sweep-1-x86_64-885</code></td><td colspan=\"14\">" + reason);
        SweepDocuments.charts(sweep); // no figures to draw for it, and nothing breaks
    }

    @Test
    void repeats_countWithTheirHighestP99AndMeanCost_andTheSpeedupBaseIsTheFirstRepeat() {
        SweepReport.Measured first = measured(1769, 1.0, false);
        SweepReport.Measured slower = measured(1769, 1.5, false);
        SweepReport.Measured second = new SweepReport.Measured("x86_64-1769#2", "x86_64", 1769, 2, slower.vcpuShare(), slower.instances(),
                slower.report(), slower.evidence(), slower.hashRates());
        SweepReport sweep = SweepReport.of(COST, List.of(first, second, measured(3538, 1.0, false)));

        SweepReport.Candidate c1769 = SweepReport.candidates(sweep.configurations()).get(0);
        assertThat(c1769.key()).isEqualTo("x86_64-1769");
        assertThat(c1769.p99Ms()).isEqualTo(Math.max(first.report().figures().overall().latency().taskDurationMs().p99(),
                second.report().figures().overall().latency().taskDurationMs().p99()));
        assertThat(c1769.cost()).isEqualByComparingTo(first.report().cost().total().add(second.report().cost().total())
                .divide(BigDecimal.valueOf(2), java.math.MathContext.DECIMAL64));
        assertThat(sweep.configurations()).extracting(SweepReport.Configuration::key).containsExactly("x86_64-1769", "x86_64-1769#2", "x86_64-3538");
        assertThat(sweep.configurations().get(1).byKind().get("all").speedup())
                .isEqualTo(Math.round(first.report().figures().overall().latency().taskDurationMs().p50()
                        / (double) second.report().figures().overall().latency().taskDurationMs().p50() * 1000) / 1000.0);
    }

    @Test
    void aRepeatThatDidNotComplete_failsItsWholeConfiguration() {
        SweepReport.Measured first = measured(885, 1.0, false);
        List<SweepReport.Outcome> outcomes = List.of(first,
                new SweepReport.Incomplete("x86_64-885#2", "x86_64", 885, 2, 0.5, 3, "sweep-1-x86_64-885-r2", "did not complete within 60 s: 0 of 4 tasks counted", null),
                measured(1769, 1.0, false));
        SweepReport sweep = SweepReport.of(COST, outcomes);
        assertThat(sweep.recommendation().key()).isEqualTo("x86_64-1769");
        assertThat(sweep.paretoFrontier()).containsExactly("x86_64-1769");

        SweepReport none = SweepReport.of(COST, outcomes.subList(0, 2));
        assertThat(none.recommendation().key()).isNull();
        assertThat(none.recommendation().reason()).contains("(1 failed, 0 not run)");
    }

    @Test
    void uncapped_saysSoOnItsFirstLineInEveryDocument_andRecommendsNothing() {
        SweepReport sweep = SweepReport.of(new SweepReport.Settings("sweep-1", null, "CPU not capped: no cpu controller", false, "cost", 0.5, null),
                fourSizes());
        assertThat(sweep.recommendation().key()).isNull();
        assertThat(sweep.recommendation().reason()).startsWith("No recommendation: CPU was not capped");
        Map<String, String> files = SweepDocuments.render(sweep);
        assertThat(files.get("sweep.md").lines().findFirst().orElseThrow()).startsWith("# CPU not capped");
        assertThat(files.get("sweep.html")).contains("<h1>CPU not capped: Batchpipe sweep sweep-1</h1>");
        assertThat(Json.parseObject(files.get("sweep.json"))).containsEntry("capped", false);
    }

    @Test
    void html_isSelfContainedWithTheFourCharts() {
        String html = SweepDocuments.html(SweepReport.of(COST, fourSizes()));
        assertThat(html).contains("id=\"sweep-duration\"", "id=\"sweep-cost\"", "id=\"sweep-speedup\"", "id=\"sweep-pareto\"", "ideal (vCPU share ratio)")
                .doesNotContain("<script", "src=", "href=", "url(");
    }

    @Test
    void settings_refuseAnUnknownStrategyAndAWeightOutsideZeroToOne() {
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SweepReport.Settings("s", null, "cpu", true, "fastest", 0.5, null))
                .hasMessageContaining("strategy must be one of [cost, speed, balanced]");
        org.assertj.core.api.Assertions.assertThatThrownBy(() -> new SweepReport.Settings("s", null, "cpu", true, "balanced", 1.5, null))
                .hasMessageContaining("between 0 and 1");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object o) {
        return (Map<String, Object>) o;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> list(Object o) {
        return (List<Map<String, Object>>) o;
    }

    private static double num(Object o) {
        return ((Number) o).doubleValue();
    }

    private static BigDecimal decimal(Object o) {
        return new BigDecimal(o.toString());
    }
}
