package batchpipe.aggregator;

import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.TaskRecord;
import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The worked example of docs/COST.md, figure by figure: if this fails, the page is wrong or the code is. */
class WorkedExampleTest {

    private static TaskRecords.Builder task(String taskId, String kind, String requestId, long started, long durationMs) {
        return TaskRecords.task(taskId, kind).run("doc").times(1_000L, started, started + durationMs).invocation(requestId, "worker")
                .platform("arm64", 1769);
    }

    private static RunReport example() {
        TaskRecord scanA = task("scan-0123456789abcdef", "scan", "req-a", 1_100, 1_500).scanned(0, 0, 200_000_000L, 0).cold(true, 400L)
                .build();
        TaskRecord scanB = task("scan-fedcba9876543210", "scan", "req-a", 1_200, 1_500).scanned(0, 0, 300_000_000L, 0).build();
        TaskRecord hash = task("hash-000001", "hash", "req-b", 1_300, 3_000).hashed(25, 10).build();
        RunRecord run = new RunRecord("doc", null, "{\"scan\":[{\"bucket\":\"logs\",\"prefix\":\"app/\"}],\"hash\":{\"batches\":1,\"batchSize\":25,\"cost\":10}}",
                new Planned(2, 1, 3), 0, 1_000, null, 1, null, null, List.of(), null, null);
        List<ReportLine> lines = List.of(
                // cold starts bill their INIT inside Billed Duration: ceil(Duration + Init Duration)
                new ReportLine("req-a", "worker", "arm64", 1769, 1_999.4, 2_399, 399.2),
                new ReportLine("req-b", "worker", "arm64", 1769, 2_999.9, 3_000, null),
                new ReportLine("req-p", "producer", "arm64", 1024, 499.0, 799, 300.0),
                new ReportLine("req-g", "aggregator", "arm64", 1024, 799.5, 1_049, 249.1));
        return RunReport.of("doc", run, List.of(scanA, scanB, hash), PriceTable.defaults(),
                new ReportInputs(lines, "the worked example", CostAssumptions.defaults()));
    }

    /** The report's JSON form at {@code path}: the figures docs/COST.md shows from report.json. */
    private static Map<String, Object> at(Object root, String... path) {
        return JsonForm.at(root, path);
    }

    private static BigDecimal decimal(Object value) {
        return (BigDecimal) value;
    }

    @Test
    void workedExample_lambda() {
        Map<String, Object> lambda = at(example().report(), "cost", "lambda");

        assertThat(decimal(lambda.get("gbSeconds"))).isEqualByComparingTo("11.1749833984375");
        assertThat(decimal(lambda.get("initGbSeconds"))).isEqualByComparingTo("1.2382880859375");
        assertThat(decimal(lambda.get("cost"))).isEqualByComparingTo("0.000149800524");
    }

    @Test
    void workedExample_sqsDynamoDbAndS3() {
        Map<String, Object> cost = at(example().report(), "cost");

        assertThat(at(cost, "sqs").get("total")).isEqualTo(8L);
        assertThat(decimal(at(cost, "sqs").get("cost"))).isEqualByComparingTo("0.0000032");
        assertThat(at(cost, "dynamoDb").get("totalWriteUnits")).isEqualTo(36L);
        assertThat(at(cost, "dynamoDb").get("totalReadUnits")).isEqualTo(6L);
        assertThat(decimal(at(cost, "dynamoDb").get("cost"))).isEqualByComparingTo("0.00002325");
        assertThat(decimal(at(cost, "s3").get("cost"))).isEqualByComparingTo("0.0000058");
    }

    @Test
    void workedExample_totalsPerRunPerMillionTasksPerGbAndPerThousandHashes() {
        Map<String, Object> cost = at(example().report(), "cost");

        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.000182050524");
        assertThat(decimal(cost.get("perMillionTasks"))).isEqualByComparingTo("60.683507881576");
        assertThat(decimal(at(cost, "byKind", "scan").get("share"))).isEqualByComparingTo("0.5");
        assertThat(decimal(at(cost, "byKind", "scan").get("perGbScanned"))).isEqualByComparingTo("0.000182050524");
        assertThat(decimal(at(cost, "byKind", "hash").get("perThousandHashes"))).isEqualByComparingTo("0.003641010473");
    }

    @Test
    void workedExample_x86ProjectionAndAMonthOfRuns() {
        Map<String, Object> cost = at(example().report(), "cost");

        assertThat(at(cost, "byArchitecture", "arm64")).containsEntry("basis", "measured");
        assertThat(at(cost, "byArchitecture", "x86_64")).containsEntry("basis", "projected");
        assertThat(decimal(at(cost, "byArchitecture", "x86_64").get("total"))).isEqualByComparingTo("0.000219300096");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("gbSeconds"))).isEqualByComparingTo("335.249501953125");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("lambdaCompute"))).isEqualByComparingTo("0.004470015709");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("total"))).isEqualByComparingTo("0.005461515709");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "x86_64").get("total"))).isEqualByComparingTo("0.006579002874");
    }
}
