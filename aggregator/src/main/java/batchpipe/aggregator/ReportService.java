package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.Headline;
import batchpipe.aggregator.delivery.ReportLocation;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.aggregator.delivery.RunCompleted;
import batchpipe.aggregator.delivery.RunEvents;
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
 * Builds a run's report ({@link ReportBuilder}) and stores it: puts its files in S3, keeps the
 * headline figures and the files' location in the run's summary item, announces a completed run and
 * emits its headline figures as EMF metrics.
 * Idempotent: the report depends only on the stored records and the given inputs, so running it twice
 * with the same inputs writes the same files and summary (and announces the run again: at least once).
 */
public final class ReportService {
    private static final StructuredLog LOG = StructuredLog.of(ReportService.class);

    private final ReportBuilder builder;
    private final DynamoDbClient dynamoDb;
    private final String table;
    private final Consumer<String> metrics;
    private final Clock clock;
    private final ReportStore files;
    private final RunEvents events;

    /**
     * @param metrics     where EMF documents go: stdout on Lambda (CloudWatch reads them from the log), nowhere
     *                    for the CLI
     * @param reportLines where {@link #report(String, Instant)} looks for the REPORT lines of the run's invocations
     * @param files       where the report files go
     * @param events      where a completed run is announced
     */
    public ReportService(RunReader reader, DynamoDbClient dynamoDb, String table, PriceTable prices, CostAssumptions assumptions,
                         Consumer<String> metrics, Clock clock, ReportLineSource reportLines, ReportStore files, RunEvents events) {
        this.builder = new ReportBuilder(reader, prices, assumptions, reportLines);
        this.files = files;
        this.events = events;
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.metrics = metrics;
        this.clock = clock;
    }

    /**
     * The aggregator's own report: the REPORT lines its source finds by {@code deadline}, the configured
     * assumptions.
     */
    public RunReport report(String runId, Instant deadline) {
        return write(runId, builder.build(runId, deadline), true);
    }

    /**
     * The report again with better inputs (the demo, with its runtime's REPORT lines): files and summary
     * are replaced, the run is not announced a second time.
     */
    public RunReport reportAgain(String runId, ReportInputs inputs) {
        return write(runId, builder.build(runId, inputs), false);
    }

    private RunReport write(String runId, RunReport built, boolean announce) {
        try {
            return stored(runId, built, announce);
        } catch (RuntimeException | Error e) {
            // the caller never gets the report to close: its tasks.csv spill goes now, not when a warm instance's /tmp fills
            built.close();
            throw e;
        }
    }

    private RunReport stored(String runId, RunReport built, boolean announce) {
        Report summary = built.summary();
        String status = summary.figures().status();
        String label = summary.figures().label();
        Headline headline = Headline.of(summary);
        // Files first: the summary and the event name them, so they must be there when either is read.
        ReportLocation location = files.store(runId, built);
        Map<String, AttributeValue> item = new HashMap<>(TableKeys.key(runId, TableKeys.SUMMARY_SK));
        item.put("runId", AttributeValue.fromS(runId));
        item.put("status", AttributeValue.fromS(status));
        if (label != null) item.put("label", AttributeValue.fromS(label));
        item.put("headline", AttributeValue.fromS(Json.write(headline)));
        item.put(SummaryItem.REPORT_BUCKET, AttributeValue.fromS(location.bucket()));
        item.put(SummaryItem.REPORT_PREFIX, AttributeValue.fromS(location.prefix()));
        item.put(SummaryItem.REPORT_KEYS, AttributeValue.fromL(location.keys().stream().map(AttributeValue::fromS).toList()));
        item.put("completionEvent", AttributeValue.fromS(events.destination()));
        dynamoDb.putItem(b -> b.tableName(table).item(item));
        if ("complete".equals(status) && built.run() != null) {
            dynamoDb.updateItem(b -> b.tableName(table)
                    .key(TableKeys.key(runId, TableKeys.RUN_SK))
                    .updateExpression("SET #status = :complete")
                    .expressionAttributeNames(Map.of("#status", "status"))
                    .expressionAttributeValues(Map.of(":complete", AttributeValue.fromS("complete"))));
        }
        if (announce && "complete".equals(status)) {
            events.publish(new RunCompleted(runId, label, status, headline, location));
        }
        metrics.accept(Json.write(EmfMetrics.document(summary, clock.millis())));
        LOG.info("report written", "runId", runId, "report", location.uri(), "status", status, "tasks", built.taskCount());
        return built;
    }
}
