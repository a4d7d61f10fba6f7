package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.cost.ReportLine;
import org.junit.jupiter.api.Test;

import java.math.BigDecimal;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The worked example of docs/COST.md, figure by figure: if this fails, the page is wrong or the code is. */
class WorkedExampleTest {

    private static Map<String, Object> task(String taskId, String kind, String requestId, long started, long durationMs) {
        Map<String, Object> t = new HashMap<>();
        t.put("pk", "run#doc");
        t.put("sk", "task#" + taskId);
        t.put("runId", "doc");
        t.put("taskId", taskId);
        t.put("kind", kind);
        t.put("status", "done");
        t.put("enqueuedAt", 1_000L);
        t.put("startedAt", started);
        t.put("finishedAt", started + durationMs);
        t.put("durationMs", durationMs);
        t.put("requestId", requestId);
        t.put("functionName", "worker");
        t.put("architecture", "arm64");
        t.put("memoryMb", 1769L);
        return t;
    }

    private static RunReport example() {
        Map<String, Object> scanA = task("scan-0123456789abcdef", "scan", "req-a", 1_100, 1_500);
        scanA.put("bytes", 200_000_000L);
        scanA.put("coldStart", true);
        scanA.put("initMs", 400L);
        Map<String, Object> scanB = task("scan-fedcba9876543210", "scan", "req-a", 1_200, 1_500);
        scanB.put("bytes", 300_000_000L);
        Map<String, Object> hash = task("hash-000001", "hash", "req-b", 1_300, 3_000);
        hash.put("hashes", 25L);
        Map<String, Object> run = new HashMap<>(Map.of("pk", "run#doc", "sk", "run", "runId", "doc", "createdAt", 1_000L,
                "planned", Map.of("scan", 2L, "hash", 1L, "total", 3L), "shards", 1L,
                "spec", "{\"scan\":[{\"bucket\":\"logs\",\"prefix\":\"app/\"}],\"hash\":{\"batches\":1,\"batchSize\":25}}"));
        List<ReportLine> lines = List.of(
                new ReportLine("req-a", "worker", "arm64", 1769, 1_999.4, 2_000, 399.2),
                new ReportLine("req-b", "worker", "arm64", 1769, 2_999.9, 3_000, null),
                new ReportLine("req-p", "producer", "arm64", 1024, 499.0, 500, 300.0),
                new ReportLine("req-g", "aggregator", "arm64", 1024, 799.5, 800, 249.1));
        return RunReport.of("doc", run, List.of(scanA, scanB, hash), PriceTable.defaults(),
                new ReportInputs(lines, "the worked example", CostAssumptions.defaults()));
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> at(Map<String, Object> root, String... path) {
        Map<String, Object> m = root;
        for (String key : path) m = (Map<String, Object>) m.get(key);
        return m;
    }

    private static BigDecimal decimal(Object value) {
        return (BigDecimal) value;
    }

    @Test
    void workedExample_lambda() {
        Map<String, Object> lambda = at(example().report(), "cost", "lambda");

        assertThat(decimal(lambda.get("gbSeconds"))).isEqualByComparingTo("9.9376953125");
        assertThat(decimal(lambda.get("initGbSeconds"))).isEqualByComparingTo("1.241015625");
        assertThat(decimal(lambda.get("cost"))).isEqualByComparingTo("0.000149850224");
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

        assertThat(decimal(cost.get("total"))).isEqualByComparingTo("0.000182100224");
        assertThat(decimal(cost.get("perMillionTasks"))).isEqualByComparingTo("60.700074804688");
        assertThat(decimal(at(cost, "byKind", "scan").get("share"))).isEqualByComparingTo("0.5");
        assertThat(decimal(at(cost, "byKind", "scan").get("perGbScanned"))).isEqualByComparingTo("0.000182100224");
        assertThat(decimal(at(cost, "byKind", "hash").get("perThousandHashes"))).isEqualByComparingTo("0.003642004488");
    }

    @Test
    void workedExample_x86ProjectionAndAMonthOfRuns() {
        Map<String, Object> cost = at(example().report(), "cost");

        assertThat(at(cost, "byArchitecture", "arm64")).containsEntry("basis", "measured");
        assertThat(at(cost, "byArchitecture", "x86_64")).containsEntry("basis", "projected");
        assertThat(decimal(at(cost, "byArchitecture", "x86_64").get("total"))).isEqualByComparingTo("0.000219362222");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("gbSeconds"))).isEqualByComparingTo("335.361328125");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("lambdaCompute"))).isEqualByComparingTo("0.004471506732");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "arm64").get("total"))).isEqualByComparingTo("0.005463006732");
        assertThat(decimal(at(cost, "monthly", "byArchitecture", "x86_64").get("total"))).isEqualByComparingTo("0.006580866647");
    }
}
