package batchpipe.aggregator.cost;

import batchpipe.aggregator.JsonForm;
import batchpipe.aggregator.TaskRecords;
import batchpipe.common.run.TaskRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.math.BigDecimal;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lambda prices of the default table: x86_64 $0.0000166667 and arm64 $0.0000133334 per GB-s, $0.20 per
 * million requests. GB-s = billed ms x memory MB / 1,024,000.
 */
class CostModelTest {
    private static final UsageModel.Usage NO_OTHER_USAGE = new UsageModel.Usage(List.of(), List.of(), List.of(), List.of(), List.of(),
            new UsageModel.Inputs(0, 0, 0, 0, 0, 0, 0, 0, 0));

    @TempDir
    Path dir;

    /** @param initMs the part of billedMs that was INIT, as a REPORT line's Billed Duration holds it */
    private static BilledInvocation invocation(String requestId, String architecture, int memoryMb, long billedMs, long initMs) {
        return new BilledInvocation(requestId, "worker", architecture, memoryMb, billedMs, initMs, 1, BilledInvocation.FROM_REPORT_LINE);
    }

    private static TaskRecords.Builder taskOf(String kind, String architecture, long durationMs) {
        return TaskRecords.task(kind + "-" + architecture + "-" + durationMs, kind).times(null, 0, durationMs).platform(architecture, 1024);
    }

    private static TaskRecord task(String kind, String architecture, long durationMs) {
        return taskOf(kind, architecture, durationMs).build();
    }

    /** The cost as report.json holds it. */
    private static Map<String, Object> cost(PriceTable prices, List<TaskRecord> tasks, List<BilledInvocation> invocations,
                                            CostAssumptions assumptions) {
        return JsonForm.of(new CostModel(prices).compute(tasks, invocations, NO_OTHER_USAGE, assumptions));
    }

    private static Map<String, Object> cost(List<BilledInvocation> invocations) {
        return cost(PriceTable.defaults(), List.of(task("scan", "x86_64", 1)), invocations, CostAssumptions.defaults());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object parent, String... path) {
        Object m = parent;
        for (String key : path) m = ((Map<String, Object>) m).get(key);
        return (Map<String, Object>) m;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> onlyGroup(Map<String, Object> cost) {
        List<Map<String, Object>> groups = (List<Map<String, Object>>) map(cost, "lambda").get("groups");
        assertThat(groups).hasSize(1);
        return groups.get(0);
    }

    private static BigDecimal decimal(Object value) {
        return (BigDecimal) value;
    }

    @Test
    void compute_arm64WithoutInit() {
        // 1,000 ms x 1,024 MB = 1 GB-s x 0.0000133334, plus one request at 0.0000002
        Map<String, Object> group = onlyGroup(cost(List.of(invocation("r", "arm64", 1024, 1_000, 0))));

        assertThat(decimal(group.get("gbSeconds"))).isEqualByComparingTo("1");
        assertThat(decimal(group.get("computeCost"))).isEqualByComparingTo("0.0000133334");
        assertThat(decimal(group.get("initCost"))).isEqualByComparingTo("0");
        assertThat(decimal(group.get("requestCost"))).isEqualByComparingTo("0.0000002");
        assertThat(decimal(group.get("cost"))).isEqualByComparingTo("0.0000135334");
    }

    @Test
    void compute_arm64WithInit_initIsAShareOfTheBilledTimeNotAnAmountOnTop() {
        // Billed Duration 1,500 ms of which INIT 500: 1.5 GB-s x 0.0000133334 = 0.0000200001, plus the request;
        // the INIT share, 0.5 GB-s x 0.0000133334 = 0.0000066667, is shown and already inside that
        Map<String, Object> cost = cost(List.of(invocation("r", "arm64", 1024, 1_500, 500)));

        Map<String, Object> group = onlyGroup(cost);
        assertThat(decimal(group.get("gbSeconds"))).isEqualByComparingTo("1.5");
        assertThat(decimal(group.get("computeCost"))).isEqualByComparingTo("0.0000200001");
        assertThat(decimal(group.get("cost"))).isEqualByComparingTo("0.0000202001");
        assertThat(decimal(group.get("initGbSeconds"))).isEqualByComparingTo("0.5");
        assertThat(decimal(group.get("initCost"))).isEqualByComparingTo("0.0000066667");
        assertThat(group).containsEntry("coldStarts", 1L).containsEntry("initBilledMs", 500L);
        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.0000202001");
    }

    @Test
    void compute_x86WithoutInit() {
        // 1 GB-s x 0.0000166667 + 0.0000002
        assertThat(decimal(cost(List.of(invocation("r", "x86_64", 1024, 1_000, 0))).get("total"))).isEqualByComparingTo("0.0000168667");
    }

    @Test
    @SuppressWarnings("unchecked")
    void compute_x86WithInit() {
        // 1,800 billed ms x 2,048 MB = 3.6 GB-s -> 0.00006000012, of which INIT 300 ms = 0.6 GB-s -> 0.00001000002
        Map<String, Object> cost = cost(List.of(invocation("r", "x86_64", 2048, 1_800, 300)));

        Map<String, Object> group = onlyGroup(cost);
        assertThat(decimal(group.get("gbSeconds"))).isEqualByComparingTo("3.6");
        assertThat(decimal(group.get("computeCost"))).isEqualByComparingTo("0.00006000012");
        assertThat(decimal(group.get("initCost"))).isEqualByComparingTo("0.00001000002");
        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.00006020012");
        // no line of its own for INIT: the lines add up to the total
        assertThat((List<Map<String, Object>>) cost.get("lines")).noneSatisfy(line -> assertThat((String) line.get("item")).startsWith("INIT"))
                .anySatisfy(line -> assertThat((String) line.get("formula"))
                        .isEqualTo("1800 billed ms x 2048 MB / 1,024,000 = 3.6 GB-s x $0.0000166667; of which 300 ms"
                                + " (0.6 GB-s, $0.00001000002) started 1 cold instance(s) (INIT)"));
        assertThat(map(cost, "lambda")).containsEntry("initInCompute", true);
    }

    @Test
    void compute_snapStartRestoreIsPricedAsTheBilledTimeItIsPartOf() {
        // 610 billed ms at 3,009 MB, of which 303 ms Billed Restore Duration; 610 x 3,009 / 1,024,000 = 1.792470703125 GB-s
        BilledInvocation restored = new BilledInvocation("r", "worker", "x86_64", 3009, 610, 303, 1,
                BilledInvocation.FROM_REPORT_LINE, 155, BilledInvocation.Start.SNAPSTART_RESTORE);

        Map<String, Object> group = onlyGroup(cost(List.of(restored)));

        assertThat(decimal(group.get("gbSeconds"))).isEqualByComparingTo("1.792470703125");
        assertThat(decimal(group.get("initGbSeconds"))).isEqualByComparingTo("0.8903583984375");
        assertThat(group).containsEntry("coldStarts", 1L).containsEntry("billedMs", 610L).containsEntry("initBilledMs", 303L);
    }

    @Test
    @SuppressWarnings("unchecked")
    void compute_leavesInitOutWhenThePriceTableDoesNotBillIt() throws IOException {
        Path override = dir.resolve("no-init.json");
        Files.writeString(override, "{\"lambda\": {\"initBilled\": false}}");

        Map<String, Object> cost = cost(PriceTable.withOverride(override), List.of(task("scan", "x86_64", 1)),
                List.of(invocation("r", "x86_64", 2048, 1_800, 300)), CostAssumptions.defaults());

        // the 300 ms of INIT come out of the 1,800 billed: 1,500 ms x 2,048 MB = 3 GB-s
        assertThat(decimal(onlyGroup(cost).get("initCost"))).isEqualByComparingTo("0");
        assertThat(decimal(onlyGroup(cost).get("gbSeconds"))).isEqualByComparingTo("3");
        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.0000502001");
        assertThat((List<Map<String, Object>>) cost.get("lines")).anySatisfy(line -> assertThat(line)
                .containsEntry("item", "compute, worker x86_64 2048 MB")
                .containsEntry("formula", "1500 billed ms x 2048 MB / 1,024,000 = 3 GB-s x $0.0000166667;"
                        + " 1 INIT phase(s) left out of the billed ms: this price table does not bill INIT"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void compute_chargesTwentyCentsPerMillionRequests() {
        // five 1 ms invocations at 128 MB: 5 x 0.000125 GB-s x 0.0000166667 = 0.0000000104166875; requests 5 x 0.0000002
        List<BilledInvocation> five = List.of(invocation("a", "x86_64", 128, 1, 0), invocation("b", "x86_64", 128, 1, 0),
                invocation("c", "x86_64", 128, 1, 0), invocation("d", "x86_64", 128, 1, 0), invocation("e", "x86_64", 128, 1, 0));

        Map<String, Object> cost = cost(five);

        assertThat((List<Map<String, Object>>) cost.get("lines")).anySatisfy(line -> {
            assertThat(line).containsEntry("item", "requests").containsEntry("formula", "5 invocations x $0.2 per 1M");
            assertThat(decimal(line.get("cost"))).isEqualByComparingTo("0.000001");
        });
        // 0.0000000104166875 + 0.000001, rounded to 12 places when written
        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.000001010417");
    }

    @Test
    void compute_perMillionTasksPerGbScannedAndPerThousandHashes() {
        // one x86 invocation: 0.0000168667 in all; the scan task took 300 ms of the 400 ms of task time
        TaskRecord scan = taskOf("scan", "x86_64", 300).scanned(0, 0, 2_000_000_000L, 0).build();
        TaskRecord hash = taskOf("hash", "x86_64", 100).hashed(500, 4).build();

        Map<String, Object> cost = cost(PriceTable.defaults(), List.of(scan, hash), List.of(invocation("r", "x86_64", 1024, 1_000, 0)),
                CostAssumptions.defaults());

        assertThat(decimal(cost.get("perMillionTasks"))).isEqualByComparingTo("8.43335");          // / 2 tasks x 1e6
        assertThat(decimal(map(cost, "byKind", "scan").get("share"))).isEqualByComparingTo("0.75");
        assertThat(decimal(map(cost, "byKind", "scan").get("cost"))).isEqualByComparingTo("0.000012650025");
        // / 2 GB = 0.0000063250125, written to 12 places (half-even)
        assertThat(decimal(map(cost, "byKind", "scan").get("perGbScanned"))).isEqualByComparingTo("0.000006325012");
        assertThat(decimal(map(cost, "byKind", "hash").get("cost"))).isEqualByComparingTo("0.000004216675");
        assertThat(decimal(map(cost, "byKind", "hash").get("perThousandHashes"))).isEqualByComparingTo("0.00000843335"); // x 1000 / 500
    }

    @Test
    void compute_projectsArm64FromX86WithTheSameDurationsAndSaysSo() {
        Map<String, Object> cost = cost(List.of(invocation("r", "x86_64", 1024, 1_000, 0)));

        Map<String, Object> x86 = map(cost, "byArchitecture", "x86_64");
        Map<String, Object> arm = map(cost, "byArchitecture", "arm64");
        assertThat(x86).containsEntry("basis", "measured").doesNotContainKey("assumption");
        assertThat(decimal(x86.get("total"))).isEqualByComparingTo("0.0000168667");
        assertThat(arm).containsEntry("basis", "projected")
                .containsEntry("assumption", "projected: the same billed durations as measured on x86_64");
        assertThat(decimal(arm.get("gbSeconds"))).isEqualByComparingTo("1");
        assertThat(decimal(arm.get("total"))).isEqualByComparingTo("0.0000135334");
    }

    @Test
    void compute_projectsWithAGivenSpeedRatioBilledInWholeMilliseconds() {
        CostAssumptions assumptions = CostAssumptions.defaults()
                .withArm64SpeedRatio(new CostAssumptions.SpeedRatio(new BigDecimal("0.8"), "run 42 compared with run 43"));

        Map<String, Object> cost = cost(PriceTable.defaults(), List.of(task("scan", "x86_64", 1)),
                List.of(invocation("r", "x86_64", 1024, 1_001, 0)), assumptions);

        Map<String, Object> arm = map(cost, "byArchitecture", "arm64");
        // ceil(1,001 x 0.8) = 801 ms -> 0.801 GB-s x 0.0000133334 = 0.0000106800534, written to 12 places
        assertThat(decimal(arm.get("gbSeconds"))).isEqualByComparingTo("0.801");
        assertThat(decimal(arm.get("lambdaCompute"))).isEqualByComparingTo("0.000010680053");
        assertThat(arm.get("assumption")).isEqualTo("projected: billed durations measured on x86_64 x 0.8"
                + " (arm64/x86_64 duration ratio 0.8, run 42 compared with run 43)");
    }

    @Test
    void compute_measuresTheSpeedRatioInARunOnBothArchitectures() {
        // arm64 tasks: 900 + 1,100 ms (mean 1,000); x86_64 tasks: 1,200 + 1,300 ms (mean 1,250): ratio 0.8
        List<TaskRecord> tasks = List.of(task("scan", "arm64", 900), task("scan", "arm64", 1_100),
                task("scan", "x86_64", 1_200), task("scan", "x86_64", 1_300));
        List<BilledInvocation> invocations = List.of(invocation("a", "arm64", 1024, 2_000, 0), invocation("x", "x86_64", 1024, 2_500, 0));

        Map<String, Object> cost = cost(PriceTable.defaults(), tasks, invocations, CostAssumptions.defaults());

        assertThat(decimal(map(cost, "byArchitecture", "measuredSpeedRatio").get("arm64OverX86"))).isEqualByComparingTo("0.8");
        Map<String, Object> arm = map(cost, "byArchitecture", "arm64");
        assertThat(arm).containsEntry("basis", "partly projected").containsEntry("measuredInvocations", 1L)
                .containsEntry("projectedInvocations", 1L);
        // 2,000 ms measured + ceil(2,500 x 0.8) = 2,000 ms projected: 4 GB-s at the arm64 price
        assertThat(decimal(arm.get("gbSeconds"))).isEqualByComparingTo("4");
        // on x86_64: 2,500 measured + ceil(2,000 / 0.8) = 2,500 projected: 5 GB-s
        assertThat(decimal(map(cost, "byArchitecture", "x86_64").get("gbSeconds"))).isEqualByComparingTo("5");
    }

    @Test
    void compute_projectsAMonthOfRuns() {
        Map<String, Object> cost = cost(PriceTable.defaults(), List.of(task("scan", "x86_64", 1)),
                List.of(invocation("r", "x86_64", 1024, 1_000, 0)), CostAssumptions.defaults().withRunsPerMonth(30));

        Map<String, Object> x86 = map(cost, "monthly", "byArchitecture", "x86_64");
        // 30 runs x 1 GB-s, all in the first tier: 30 x 0.0000166667; requests 30 x 0.0000002
        assertThat(decimal(x86.get("gbSeconds"))).isEqualByComparingTo("30");
        assertThat(decimal(x86.get("lambdaCompute"))).isEqualByComparingTo("0.000500001");
        assertThat(decimal(x86.get("lambdaRequests"))).isEqualByComparingTo("0.000006");
        assertThat(decimal(x86.get("total"))).isEqualByComparingTo("0.000506001");
        assertThat(map(cost, "monthly")).containsEntry("runsPerMonth", 30);
    }

    @Test
    void scaled_billsAProjectedDurationInWholeMillisecondsRoundedUp() {
        assertThat(CostModel.scaled(1_000, BigDecimal.ONE)).isEqualTo(1_000);
        assertThat(CostModel.scaled(1_001, new BigDecimal("0.8"))).isEqualTo(801);
        assertThat(CostModel.scaled(3, new BigDecimal("1.25"))).isEqualTo(4);
    }
}
