package batchpipe.aggregator;

import batchpipe.aggregator.stats.RunStatistics;
import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.table.TableKeys;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;

import java.util.Map;

/**
 * Builds a run's report and stores it as the run's summary item. Idempotent: the report depends only
 * on the stored records, so running it twice writes the same summary.
 */
public final class ReportService {
    private static final StructuredLog LOG = StructuredLog.of(ReportService.class);

    private final RunReader reader;
    private final DynamoDbClient dynamoDb;
    private final String table;

    public ReportService(RunReader reader, DynamoDbClient dynamoDb, String table) {
        this.reader = reader;
        this.dynamoDb = dynamoDb;
        this.table = table;
    }

    public Map<String, Object> report(String runId) {
        RunReader.StoredRun stored = reader.read(runId);
        if (stored.run() == null && stored.tasks().isEmpty()) {
            throw new IllegalArgumentException("run '" + runId + "' not found in table " + table);
        }
        Map<String, Object> report = RunStatistics.compute(runId, stored.run(), stored.tasks());
        Map<String, AttributeValue> key = Map.of(
                TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)),
                TableKeys.SK, AttributeValue.fromS(TableKeys.SUMMARY_SK));
        Map<String, AttributeValue> item = new java.util.HashMap<>(key);
        item.put("runId", AttributeValue.fromS(runId));
        item.put("status", AttributeValue.fromS(String.valueOf(report.get("status"))));
        item.put("report", AttributeValue.fromS(Json.write(report)));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        if ("complete".equals(report.get("status")) && stored.run() != null) {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(runId)), TableKeys.SK, AttributeValue.fromS(TableKeys.RUN_SK)))
                    .updateExpression("SET #status = :complete")
                    .expressionAttributeNames(Map.of("#status", "status"))
                    .expressionAttributeValues(Map.of(":complete", AttributeValue.fromS("complete"))));
        }
        LOG.info("report written", "runId", runId, "status", report.get("status"), "tasks", stored.tasks().size());
        return report;
    }
}
