package batchpipe.aggregator;

import batchpipe.aggregator.cost.CostAssumptions;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.delivery.EventBridgeRunEvents;
import batchpipe.aggregator.delivery.JsonLinesRunEvents;
import batchpipe.aggregator.delivery.LoggedRunEvents;
import batchpipe.aggregator.delivery.ReportStore;
import batchpipe.aggregator.delivery.RunEvents;
import batchpipe.aggregator.logs.LogsInsightsReportLines;
import batchpipe.aggregator.priming.AggregatorPriming;
import batchpipe.common.aws.AwsClients;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.json.Json;
import batchpipe.common.log.InvocationLog;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.priming.Priming;
import batchpipe.common.sqs.SqsEventJson;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import software.amazon.awssdk.services.cloudwatchlogs.CloudWatchLogsClient;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
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

    /** Kept free at the end of an invocation for writing the report once the REPORT lines are in. */
    static final Duration REPORT_RESERVE = Duration.ofSeconds(30);
    /** The most a report waits for REPORT lines, however long the function may still run. */
    static final Duration REPORT_LINES_BUDGET = Duration.ofMinutes(2);

    private final ReportService reports;
    private final Clock clock;
    private final InvocationLog log = InvocationLog.of(FunctionEnvironment.current());
    /** SnapStart hooks: warm-up before the snapshot, fresh entropy (and a cold start to come) after each restore. */
    private final Priming priming = AggregatorPriming.hooks().afterRestore(log::restored).register();

    public AggregatorHandler() {
        this(AggregatorConfig.from(FunctionEnvironment.current()));
    }

    private AggregatorHandler(AggregatorConfig config) {
        this(config, AwsClients.dynamoDb(), AwsClients.s3(), runEvents(config), reportLineSource(config), Clock.systemUTC());
    }

    /** {@code env} as {@link AggregatorConfig#from} reads it. */
    AggregatorHandler(Map<String, String> env, DynamoDbClient dynamoDb, S3Client s3, RunEvents events) {
        this(AggregatorConfig.from(env), dynamoDb, s3, events, ReportLineSource.NONE, Clock.systemUTC());
    }

    AggregatorHandler(AggregatorConfig config, DynamoDbClient dynamoDb, S3Client s3, RunEvents events, ReportLineSource reportLines,
                      Clock clock) {
        PriceTable prices = PriceTable.load(config.priceTableFile());
        CostAssumptions assumptions = CostAssumptions.defaults().withRunsPerMonth(config.runsPerMonth());
        this.clock = clock;
        // EMF documents are log lines; System.out is looked up per line because a host may redirect it.
        this.reports = new ReportService(new RunReader(dynamoDb, config.table()), dynamoDb, config.table(), prices, assumptions,
                line -> System.out.println(line), clock, reportLines, new ReportStore(s3, config.reportBucket(), config.reportPrefix()), events);
    }

    /**
     * EventBridge's default bus, reached like every other service through the standard SDK settings;
     * a JSON-lines file when RUN_EVENTS_FILE names one, which only the local stack does (it has no
     * EventBridge to send to). When the table is on a local endpoint and EventBridge is not (sam local
     * invoke, which passes on only the variables the template declares), the event is logged instead of
     * reaching whatever AWS account the credentials name.
     */
    static RunEvents runEvents(AggregatorConfig config) {
        if (config.runEventsFile() != null) return new JsonLinesRunEvents(Path.of(config.runEventsFile()), Clock.systemUTC());
        if (AwsClients.hasEndpointOverride("AWS_ENDPOINT_URL_DYNAMODB", "aws.endpointUrlDynamoDb")
                && !AwsClients.hasEndpointOverride("AWS_ENDPOINT_URL_EVENTBRIDGE", "aws.endpointUrlEventBridge")) {
            return new LoggedRunEvents("the runs table is on a local endpoint (AWS_ENDPOINT_URL_DYNAMODB) and EventBridge is not"
                    + " (AWS_ENDPOINT_URL_EVENTBRIDGE), so no EventBridge of this stack is reachable");
        }
        return new EventBridgeRunEvents(AwsClients.configure(EventBridgeClient.builder()).build());
    }

    /**
     * Logs Insights when configured, unless the table is on a local endpoint and CloudWatch Logs is not:
     * then the functions ran on the local stack (or sam local), their REPORT lines are not in any log group,
     * and the query would reach whatever AWS account the credentials name.
     */
    static ReportLineSource reportLineSource(AggregatorConfig config) {
        if (config.reportLines() != AggregatorConfig.ReportLines.LOGS_INSIGHTS) return ReportLineSource.NONE;
        if (AwsClients.hasEndpointOverride("AWS_ENDPOINT_URL_DYNAMODB", "aws.endpointUrlDynamoDb")
                && !AwsClients.hasEndpointOverride("AWS_ENDPOINT_URL_CLOUDWATCH_LOGS", "aws.endpointUrlCloudWatchLogs")) {
            String why = "none: REPORT_LINES is logs-insights, but the runs table is on a local endpoint (AWS_ENDPOINT_URL_DYNAMODB)"
                    + " and CloudWatch Logs is not (AWS_ENDPOINT_URL_CLOUDWATCH_LOGS), so the functions' REPORT lines are in no"
                    + " log group; each worker invocation's duration is measured from its task records";
            return (run, tasks, deadline) -> new ReportLineSource.Found(List.of(), why);
        }
        CloudWatchLogsClient logs = AwsClients.configure(CloudWatchLogsClient.builder()).build();
        return new LogsInsightsReportLines(logs, config.workerLogGroups());
    }

    /** When the REPORT lines must be in: within the budget, and early enough to write the report before the function times out. */
    Instant reportLinesDeadline(Context context) {
        Instant now = clock.instant();
        if (context == null) return now.plus(REPORT_LINES_BUDGET); // called directly, not by a Lambda runtime
        Instant beforeTimeout = now.plusMillis(context.getRemainingTimeInMillis()).minus(REPORT_RESERVE);
        Instant withinBudget = now.plus(REPORT_LINES_BUDGET);
        return beforeTimeout.isBefore(withinBudget) ? beforeTimeout : withinBudget;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] bytes = input.readAllBytes();
        output.write(log.around(context, () -> respond(bytes, context)));
    }

    private byte[] respond(byte[] bytes, Context context) {
        // Either the CompletionsQueue's SQS event or an on-demand {"runId": ...}: JSON of two shapes, told apart here.
        Map<String, Object> event = Json.parseObject(new String(bytes, StandardCharsets.UTF_8));
        if (event.containsKey("Records")) {
            // The same reader as the worker's: the events library's own records, checked field by field.
            List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
            for (SQSEvent.SQSMessage message : SqsEventJson.records(bytes)) {
                try {
                    // closed once stored: its tasks.csv spill must not pile up in a warm instance's /tmp
                    reports.report(runIdOf(Json.parseObject(message.getBody())), reportLinesDeadline(context)).close();
                } catch (RuntimeException e) {
                    LOG.error("report failed; the message will be retried", e, "messageId", message.getMessageId());
                    failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
                }
            }
            return SqsEventJson.write(new SQSBatchResponse(failures));
        }
        try (RunReport report = reports.report(runIdOf(event), reportLinesDeadline(context))) {
            return Json.write(report.summary()).getBytes(StandardCharsets.UTF_8);
        }
    }

    /** The run id of a completion message or an on-demand event: JSON from outside, of which only this field is read. */
    private static String runIdOf(Map<String, Object> event) {
        if (!(event.get("runId") instanceof String runId) || runId.isBlank()) {
            throw new IllegalArgumentException("the aggregator needs {\"runId\": \"...\"}; got fields " + event.keySet());
        }
        return runId;
    }
}
