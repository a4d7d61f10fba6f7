package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.priming.AggregatorPriming;
import batchpipe.common.aws.AwsClients;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.json.Json;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.priming.Priming;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Builds a run's report. Two event shapes: an SQS event from the completions queue (the worker that
 * finished the run sent {@code {"runId"}}), answered with a partial batch response; or
 * {@code {"runId": "..."}} on demand, answered with the report itself.
 */
public final class AggregatorHandler implements RequestStreamHandler {
    private static final StructuredLog LOG = StructuredLog.of(AggregatorHandler.class);

    private final ReportService reports;
    /** SnapStart hooks: warm-up before the snapshot, fresh entropy after each restore. */
    private final Priming priming = AggregatorPriming.register();

    public AggregatorHandler() {
        this(FunctionEnvironment.current(), AwsClients.dynamoDb());
    }

    /**
     * {@code TABLE_NAME}; optional {@code PRICE_TABLE_FILE} (a price table laid over the bundled one) and
     * {@code RUNS_PER_MONTH} (for the monthly projection, default 30).
     */
    AggregatorHandler(Map<String, String> env, DynamoDbClient dynamoDb) {
        String table = FunctionEnvironment.require(env, "TABLE_NAME");
        PriceTable prices = PriceTable.load(env.get("PRICE_TABLE_FILE"));
        CostAssumptions assumptions = CostAssumptions.defaults().withRunsPerMonth(FunctionEnvironment.intValue(env, "RUNS_PER_MONTH",
                CostAssumptions.DEFAULT_RUNS_PER_MONTH, 1, 1_000_000_000));
        // EMF documents are log lines; System.out is looked up per line because a host may redirect it.
        this.reports = new ReportService(new RunReader(dynamoDb, table), dynamoDb, table, prices, assumptions,
                line -> System.out.println(line), Clock.systemUTC());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        Map<String, Object> event = Json.parseObject(new String(input.readAllBytes(), StandardCharsets.UTF_8));
        Object response;
        if (event.get("Records") instanceof List<?> records) {
            List<Map<String, String>> failures = new ArrayList<>();
            for (Object r : records) {
                Map<String, Object> record = (Map<String, Object>) r;
                String messageId = String.valueOf(record.get("messageId"));
                try {
                    reports.report(runIdOf(Json.parseObject(String.valueOf(record.get("body")))));
                } catch (RuntimeException e) {
                    LOG.error("report failed; the message will be retried", e, "messageId", messageId);
                    failures.add(Map.of("itemIdentifier", messageId));
                }
            }
            response = Map.of("batchItemFailures", failures);
        } else {
            response = reports.report(runIdOf(event));
        }
        output.write(Json.write(response).getBytes(StandardCharsets.UTF_8));
    }

    private static String runIdOf(Map<String, Object> event) {
        if (!(event.get("runId") instanceof String runId) || runId.isBlank()) {
            throw new IllegalArgumentException("the aggregator needs {\"runId\": \"...\"}; got fields " + event.keySet());
        }
        return runId;
    }
}
