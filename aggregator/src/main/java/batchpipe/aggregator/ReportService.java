package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.report.EmfMetrics;
import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.time.Clock;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.function.Consumer;

/**
 * Builds a run's report, stores it as the run's summary item and emits its headline figures as EMF
 * metrics. Idempotent: the report depends only on the stored records and the given inputs, so running
 * it twice with the same inputs writes the same summary.
 */
public final class ReportService {
    private static final StructuredLog LOG = StructuredLog.of(ReportService.class);

    private final RunReader reader;
    private final DynamoDbClient dynamoDb;
    private final String table;
    private final PriceTable prices;
    private final CostAssumptions assumptions;
    private final Consumer<String> metrics;
    private final Clock clock;
    private final ReportLineSource reportLines;

    /**
     * @param metrics where EMF documents go: stdout on Lambda (CloudWatch reads them from the log), nowhere
     *                for the CLI
     */
    public ReportService(RunReader reader, DynamoDbClient dynamoDb, String table, PriceTable prices, CostAssumptions assumptions,
                         Consumer<String> metrics, Clock clock) {
        this(reader, dynamoDb, table, prices, assumptions, metrics, clock, ReportLineSource.NONE);
    }

    /** @param reportLines where {@link #report(String, Instant)} looks for the REPORT lines of the run's invocations */
    public ReportService(RunReader reader, DynamoDbClient dynamoDb, String table, PriceTable prices, CostAssumptions assumptions,
                         Consumer<String> metrics, Clock clock, ReportLineSource reportLines) {
        this.reportLines = reportLines;
        this.reader = reader;
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.prices = prices;
        this.assumptions = assumptions;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * The aggregator's own report: the REPORT lines its source finds by {@code deadline}, the configured
     * assumptions.
     */
    public RunReport report(String runId, Instant deadline) {
        RunReader.StoredRun stored = read(runId);
        ReportLineSource.Found found = reportLines.find(stored.run(), stored.tasks(), deadline);
        return write(runId, stored, new ReportInputs(found.lines(), found.source(), assumptions));
    }

    public RunReport report(String runId, ReportInputs inputs) {
        return write(runId, read(runId), inputs);
    }

    private RunReader.StoredRun read(String runId) {
        RunReader.StoredRun stored = reader.read(runId);
        if (stored.run() == null && stored.tasks().isEmpty()) {
            throw new IllegalArgumentException("run '" + runId + "' not found in table " + table);
        }
        return stored;
    }

    private RunReport write(String runId, RunReader.StoredRun stored, ReportInputs inputs) {
        RunReport built = RunReport.of(runId, stored.run(), stored.tasks(), prices, inputs);
        Map<String, Object> summary = built.summary();
        Map<String, AttributeValue> item = new HashMap<>();
        item.put(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)));
        item.put(TableKeys.SK, AttributeValue.fromS(TableKeys.SUMMARY_SK));
        item.put("runId", AttributeValue.fromS(runId));
        item.put("status", AttributeValue.fromS(String.valueOf(summary.get("status"))));
        item.put("report", AttributeValue.fromS(Json.write(summary)));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        if ("complete".equals(summary.get("status")) && stored.run() != null) {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(TableKeys.RUN_SK)))
                    .updateExpression("SET #status = :complete")
                    .expressionAttributeNames(Map.of("#status", "status"))
                    .expressionAttributeValues(Map.of(":complete", AttributeValue.fromS("complete"))));
        }
        metrics.accept(Json.write(EmfMetrics.document(summary, clock.millis())));
        LOG.info("report written", "runId", runId, "status", summary.get("status"), "tasks", stored.tasks().size());
        return built;
    }
}
