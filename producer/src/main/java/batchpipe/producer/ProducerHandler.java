package batchpipe.producer;

import batchpipe.common.aws.AwsClients;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;
import batchpipe.common.json.JsonFields;
import batchpipe.common.log.InvocationLog;
import batchpipe.common.priming.Priming;
import batchpipe.common.log.StructuredLog;
import batchpipe.common.sqs.SqsEventJson;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.RunHost;
import batchpipe.common.spec.InvalidRunSpecException;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.plan.RemainingTime;
import batchpipe.producer.priming.ProducerPriming;
import batchpipe.producer.run.RunStore;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Plans a run. The event is a run spec (the EventBridge Scheduler input, a console test event, or
 * {@code ./batchpipe invoke ProducerFunction}); the response is
 * {@code {"runId", "planned": {"scan", "hash"}, "enqueued", "seconds"}}, with {@code "continued": true}
 * when planning goes on in another invocation. Or the event is a batch of one continuation from the
 * planning queue ({@link PlanningContinuations}): planning goes on where the run's cursor is. A stream
 * handler so that the spec is validated by our own strict reader (unknown fields are errors, not
 * silently dropped).
 */
public final class ProducerHandler implements RequestStreamHandler {
    private static final StructuredLog LOG = StructuredLog.of(ProducerHandler.class);
    private final RunSpecParser parser;
    private final RunPlanner planner;
    private final RunStore runs;
    private final int planningMaxReceives;
    private final InvocationLog log = InvocationLog.of(FunctionEnvironment.current());
    /** SnapStart hooks: warm-up before the snapshot, fresh entropy (and a cold start to come) after each restore. */
    private final Priming priming = ProducerPriming.hooks().afterRestore(log::restored).register();

    public ProducerHandler() {
        this(ProducerConfig.from(FunctionEnvironment.current()), AwsClients.s3(), AwsClients.sqs(), AwsClients.dynamoDb());
    }

    ProducerHandler(ProducerConfig config, S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb) {
        this.parser = new RunSpecParser(config.limits());
        RunPlanner planner = RunPlanner.create(s3, sqs, dynamoDb, config.plannerSettings());
        this.planner = config.recordHost() ? planner.recordingHost(RunHost::capture) : planner;
        this.runs = new RunStore(dynamoDb, config.tableName());
        this.planningMaxReceives = config.planningMaxReceives();
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] event = input.readAllBytes();
        RemainingTime remaining = context == null ? RemainingTime.UNLIMITED : context::getRemainingTimeInMillis;
        String requestId = context == null ? null : context.getAwsRequestId();
        byte[] response = log.around(context, () -> plan(event, remaining, requestId));
        output.write(response);
    }

    private byte[] plan(byte[] event, RemainingTime remaining, String requestId) {
        Map<String, Object> specJson; // JSON edge: the event, parsed once to tell a run spec from a batch of continuations
        try {
            specJson = Json.parseObject(new String(event, StandardCharsets.UTF_8));
        } catch (JsonException e) {
            throw new InvalidRunSpecException(List.of("the event is not a JSON run spec: " + e.getMessage()));
        }
        if (specJson.containsKey("Records")) {
            return continuePlanning(event, remaining);
        }
        RunSpec spec = parser.parse(specJson);
        PlanResult result = planner.plan(spec, sent -> { }, remaining, requestId);
        return result.toJson().getBytes(StandardCharsets.UTF_8);
    }

    /**
     * Continuations, one a batch. A failure fails the invocation, and SQS delivers the continuation again
     * after the queue's visibility timeout; on its last allowed receive, the run is marked enqueue-failed
     * instead, so that a person sees a run that cannot complete rather than one that waits for ever.
     */
    private byte[] continuePlanning(byte[] event, RemainingTime remaining) {
        List<PlanResult> results = new ArrayList<>();
        for (SQSMessage message : SqsEventJson.records(event)) {
            String runId = PlanningContinuations.runIdOf(message.getBody());
            if (runId == null) {
                LOG.warn("planning queue message is not a continuation; dropped", "messageId", message.getMessageId());
                continue;
            }
            try {
                results.add(planner.resume(runId, remaining));
            } catch (RuntimeException e) {
                int receives = ReceiveCounts.of(message);
                if (receives < planningMaxReceives) throw e;
                LOG.error("planning failed on the continuation's last allowed receive; the run is marked enqueue-failed", e,
                        "runId", runId, "receives", receives);
                runs.markPlanningFailed(runId, "planning stopped after " + receives + " attempts: " + e.getMessage());
            }
        }
        return Json.write(new JsonFields().put("continued", results)).getBytes(StandardCharsets.UTF_8);
    }

    /** SQS's receive count of a message; 1 when it gave none (never taken for a last receive). */
    private static final class ReceiveCounts {
        static int of(SQSMessage message) {
            String count = message.getAttributes() == null ? null : message.getAttributes().get("ApproximateReceiveCount");
            try {
                return count == null ? 1 : Integer.parseInt(count);
            } catch (NumberFormatException e) {
                return 1;
            }
        }
    }
}
