package batchpipe.local.sweep;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.ReportInputs;
import batchpipe.aggregator.RunReport;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;
import static org.assertj.core.api.Assertions.withinPercentage;

class SweepEstimateTest {
    private static final PriceTable PRICES = PriceTable.defaults();
    private static final BigDecimal X86 = PRICES.gbSecondPrice("x86_64");
    private static final BigDecimal ARM = PRICES.gbSecondPrice("arm64");

    private static double dollars(double billedSeconds, int memoryMb, BigDecimal price) {
        return billedSeconds * memoryMb / 1024.0 * price.doubleValue();
    }

    @Test
    void fromTheSpec_hashTasksSpreadTheirHashesOverTheVcpus_soIdealScalingCostsTheSameAtEveryMemory() {
        SweepEstimate.Workload work = new SweepEstimate.Workload(32, 8, 10, 0, 0);
        // 8 hashes × 70 ms at cost 10 on one vCPU = 560 ms per task at 1,769 MB, 280 ms at 3,538 MB.
        SweepEstimate.Estimate at1769 = SweepEstimate.estimate(work, null, "x86_64-1769", "x86_64", 1769, PRICES);
        SweepEstimate.Estimate at3538 = SweepEstimate.estimate(work, null, "x86_64-3538", "x86_64", 3538, PRICES);
        assertThat(at1769.billedSeconds()).isCloseTo(32 * 0.560, within(1e-9));
        assertThat(at3538.billedSeconds()).isCloseTo(32 * 0.280, within(1e-9));
        assertThat(at1769.lambdaCompute().doubleValue()).isCloseTo(dollars(32 * 0.560, 1769, X86), withinPercentage(0.05));
        assertThat(at3538.lambdaCompute()).isEqualByComparingTo(at1769.lambdaCompute());
        assertThat(at1769.basis()).contains("32 hash tasks × 560 ms (from the spec)").contains("1.000 vCPU");
        // Each cost step doubles the work; arm64 is priced as arm64.
        SweepEstimate.Estimate cost12 = SweepEstimate.estimate(new SweepEstimate.Workload(32, 8, 12, 0, 0), null, "arm64-1769", "arm64", 1769, PRICES);
        assertThat(cost12.billedSeconds()).isCloseTo(4 * 32 * 0.560, within(1e-9));
        assertThat(cost12.lambdaCompute().doubleValue()).isCloseTo(dollars(4 * 32 * 0.560, 1769, ARM), withinPercentage(0.05));
    }

    @Test
    void fromTheSpec_aTaskIsNotSpedUpBeyondItsParallelism() {
        // One hash per task cannot use a second vCPU: at 3,538 MB it takes as long as at 1,769 MB and costs twice as much.
        SweepEstimate.Workload oneHash = new SweepEstimate.Workload(10, 1, 10, 0, 0);
        SweepEstimate.Estimate at1769 = SweepEstimate.estimate(oneHash, null, "k", "x86_64", 1769, PRICES);
        SweepEstimate.Estimate at3538 = SweepEstimate.estimate(oneHash, null, "k", "x86_64", 3538, PRICES);
        assertThat(at3538.billedSeconds()).isCloseTo(at1769.billedSeconds(), within(1e-9));
        assertThat(at3538.lambdaCompute().doubleValue()).isCloseTo(2 * at1769.lambdaCompute().doubleValue(), withinPercentage(0.1));
        // Half a vCPU takes twice as long.
        SweepEstimate.Estimate at885 = SweepEstimate.estimate(oneHash, null, "k", "x86_64", 885, PRICES);
        assertThat(at885.billedSeconds()).isCloseTo(10 * 0.070 * 1769 / 885.0, within(1e-9));
    }

    @Test
    void fromTheSpec_scanTasksCountTheirObjectsSizesAtTheStatedRate_onOneVcpuAtMost() {
        SweepEstimate.Workload work = new SweepEstimate.Workload(0, 0, 0, 24, 48_000_000);
        double seconds = 48 / SweepEstimate.SCAN_COMPRESSED_MB_PER_VCPU_SECOND;
        SweepEstimate.Estimate at1769 = SweepEstimate.estimate(work, null, "k", "x86_64", 1769, PRICES);
        SweepEstimate.Estimate at3538 = SweepEstimate.estimate(work, null, "k", "x86_64", 3538, PRICES);
        SweepEstimate.Estimate at885 = SweepEstimate.estimate(work, null, "k", "x86_64", 885, PRICES);
        assertThat(at1769.billedSeconds()).isCloseTo(seconds, within(1e-9));
        assertThat(at3538.billedSeconds()).isCloseTo(seconds, within(1e-9));
        assertThat(at885.billedSeconds()).isCloseTo(seconds * 1769 / 885.0, within(1e-9));
        assertThat(at1769.lambdaCompute().doubleValue()).isCloseTo(dollars(seconds, 1769, X86), withinPercentage(0.05));
        assertThat(at1769.basis()).contains("24 scan tasks of 48.0 MB compressed");
        // A mixed spec adds both.
        SweepEstimate.Estimate mixed = SweepEstimate.estimate(new SweepEstimate.Workload(32, 8, 10, 24, 48_000_000), null, "k", "x86_64", 1769, PRICES);
        assertThat(mixed.billedSeconds()).isCloseTo(seconds + 32 * 0.560, within(1e-9));
        assertThat(SweepEstimate.assumptions(null, work)).contains("no stored report of this label", "70 ms per hash",
                SweepEstimate.SCAN_COMPRESSED_MB_PER_VCPU_SECOND + " MB compressed per billed second", "Lambda compute only");
    }

    /**
     * A stored run at 1,769 MB: two hash tasks of 8 hashes (500 ms each) and two scan tasks (100 ms each, a pool of one
     * thread), billed 1,500 ms in all (a cold start's INIT included).
     */
    static Report stored(String runId, String label, long createdAt) {
        RunRecord run = new RunRecord(runId, label, null, new Planned(2, 2, 4), 16, createdAt, "complete", 1, 4L, null, List.of(), null, null);
        List<TaskRecord> tasks = new ArrayList<>();
        List<ReportLine> lines = new ArrayList<>();
        for (int i = 1; i <= 2; i++) {
            String hashRequest = "req-h" + i, scanRequest = "req-s" + i;
            tasks.add(TaskRecord.builder().runId(runId).taskId("hash-00000" + i).kind("hash").status(TaskStatus.DONE).enqueuedAt(createdAt)
                    .startedAt(createdAt + 10).finishedAt(createdAt + 510).attempt(1).invocation(invocation(hashRequest))
                    .hash(new HashOutcome(8, 8)).build());
            tasks.add(TaskRecord.builder().runId(runId).taskId("scan-" + i).kind("scan").status(TaskStatus.DONE).enqueuedAt(createdAt)
                    .startedAt(createdAt + 10).finishedAt(createdAt + 110).attempt(1).invocation(invocation(scanRequest))
                    .scan(new ScanOutcome("b", "logs/" + i, 10, 0, List.of(), 0, 4_000_000, 1_000_000, Map.of(), Map.of(), Map.of(), Map.of(),
                            null)).build());
            lines.add(new ReportLine(hashRequest, "stack-WorkerFunction-abc", "x86_64", 1769, 500, i == 1 ? 800 : 500, i == 1 ? 299.5 : null));
            lines.add(new ReportLine(scanRequest, "stack-WorkerFunction-abc", "x86_64", 1769, 100, 100, null));
        }
        try (RunReport report = RunReport.of(runId, run, tasks, PRICES, new ReportInputs(lines, "test REPORT lines", CostAssumptions.defaults()))) {
            return report.summary();
        }
    }

    private static WorkerInvocation invocation(String requestId) {
        return new WorkerInvocation(requestId, "stack-WorkerFunction-abc", "1", 1769, "x86_64", 1, 1.0, false, null);
    }

    @Test
    void reference_isTheNewestReportOfTheLabel_asAPlainRunOrAnEarlierSweepsConfiguration() {
        Report older = stored("r-old", "nightly", 1_000_000L);
        Report sweepRun = stored("sweep-1-x86_64-1769", "nightly x86_64-1769", 2_000_000L);
        Report otherLabel = stored("r-other", "nightly-big", 3_000_000L);
        Report notASweepKey = stored("r-suffix", "nightly extra", 4_000_000L);

        SweepEstimate.Reference reference = SweepEstimate.reference(List.of(older, sweepRun, otherLabel, notASweepKey), "nightly");
        assertThat(reference.runId()).isEqualTo("sweep-1-x86_64-1769");
        assertThat(SweepEstimate.reference(List.of(older, otherLabel), "nightly").runId()).isEqualTo("r-old");
        assertThat(SweepEstimate.reference(List.of(otherLabel), "nightly")).isNull();
        assertThat(SweepEstimate.reference(List.of(older), null)).isNull();
    }

    @Test
    void fromAStoredReport_eachKindsBilledTimePerTaskIsScaledByTheVcpuShareUpToItsParallelism() {
        SweepEstimate.Reference reference = SweepEstimate.reference(List.of(stored("r1", "nightly", 1_000L)), "nightly");
        assertThat(reference.memoryMb()).isEqualTo(1769);
        assertThat(reference.architecture()).isEqualTo("x86_64");
        // 1,500 ms billed; hash tasks took 1,000 of the 1,200 ms of task time, scan tasks 200.
        assertThat(reference.byKind().get("hash").billedMsPerTask()).isCloseTo(1_500 * (1_000 / 1_200.0) / 2, within(0.01));
        assertThat(reference.byKind().get("scan").billedMsPerTask()).isCloseTo(1_500 * (200 / 1_200.0) / 2, within(0.01));
        assertThat(reference.byKind().get("hash").parallelism()).isEqualTo(8.0);
        assertThat(reference.byKind().get("scan").parallelism()).isEqualTo(1.0);

        SweepEstimate.Workload work = new SweepEstimate.Workload(10, 8, 10, 6, 6_000_000);
        double hash = 625, scan = 125;
        SweepEstimate.Estimate at1769 = SweepEstimate.estimate(work, reference, "x86_64-1769", "x86_64", 1769, PRICES);
        assertThat(at1769.billedSeconds()).isCloseTo((10 * hash + 6 * scan) / 1000, within(1e-6));
        // Two vCPUs halve a hash task (8 hashes can use them) but not a scan task measured on one thread.
        SweepEstimate.Estimate at3538 = SweepEstimate.estimate(work, reference, "x86_64-3538", "x86_64", 3538, PRICES);
        assertThat(at3538.billedSeconds()).isCloseTo((10 * hash / 2 + 6 * scan) / 1000, within(1e-6));
        // Half a vCPU doubles both.
        SweepEstimate.Estimate at885 = SweepEstimate.estimate(work, reference, "x86_64-885", "x86_64", 885, PRICES);
        assertThat(at885.billedSeconds()).isCloseTo((10 * hash + 6 * scan) / 1000 * 1769 / 885.0, within(1e-6));
        assertThat(at885.lambdaCompute().doubleValue()).isCloseTo(dollars(at885.billedSeconds(), 885, X86), withinPercentage(0.05));
        assertThat(at3538.basis()).containsPattern("10 hash tasks × 31[23] ms \\(measured, scaled\\)").contains("6 scan tasks × 125 ms (measured, scaled)");
        assertThat(SweepEstimate.assumptions(reference, work)).contains("measured in run r1 (label 'nightly'", "x86_64 at 1,769 MB",
                "hash 625 ms billed per task (parallelism 8)");
    }

    @Test
    void aKindTheStoredRunDidNotHave_isEstimatedFromTheSpec_andSaysSo() {
        Report hashOnly;
        RunRecord run = new RunRecord("r2", "mixed", null, new Planned(0, 1, 1), 8, 1_000L, "complete", 1, 1L, null, List.of(), null, null);
        TaskRecord task = TaskRecord.builder().runId("r2").taskId("hash-000001").kind("hash").status(TaskStatus.DONE).enqueuedAt(1_000L)
                .startedAt(1_010L).finishedAt(1_510L).attempt(1).invocation(invocation("req-1")).hash(new HashOutcome(8, 8)).build();
        try (RunReport report = RunReport.of("r2", run, List.of(task), PRICES, new ReportInputs(
                List.of(new ReportLine("req-1", "stack-WorkerFunction-abc", "x86_64", 1769, 500, 500, null)), "lines", CostAssumptions.defaults()))) {
            hashOnly = report.summary();
        }
        SweepEstimate.Reference reference = SweepEstimate.reference(List.of(hashOnly), "mixed");
        SweepEstimate.Workload work = new SweepEstimate.Workload(1, 8, 10, 2, 4_000_000);
        SweepEstimate.Estimate estimate = SweepEstimate.estimate(work, reference, "k", "x86_64", 1769, PRICES);
        assertThat(estimate.billedSeconds()).isCloseTo(0.5 + 4 / SweepEstimate.SCAN_COMPRESSED_MB_PER_VCPU_SECOND, within(1e-6));
        assertThat(estimate.basis()).contains("(measured, scaled)", "(from the spec)");
        assertThat(SweepEstimate.assumptions(reference, work)).contains("kinds it did not run from the spec");
    }
}
