package batchpipe.producer;

import batchpipe.common.aws.AwsClients;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.run.RunHost;
import batchpipe.common.json.Json;
import batchpipe.common.json.JsonException;
import batchpipe.common.log.InvocationLog;
import batchpipe.common.priming.Priming;
import batchpipe.producer.priming.ProducerPriming;
import batchpipe.producer.spec.InvalidRunSpecException;
import batchpipe.producer.spec.RunSpec;
import batchpipe.producer.spec.RunSpecParser;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

/**
 * Plans a run. The event is a run spec (the EventBridge Scheduler input, a console test event, or
 * {@code ./batchpipe invoke ProducerFunction}); the response is
 * {@code {"runId", "planned": {"scan", "hash"}, "enqueued", "seconds"}}. A stream handler so that the
 * spec is validated by our own strict reader (unknown fields are errors, not silently dropped).
 */
public final class ProducerHandler implements RequestStreamHandler {
    private final RunSpecParser parser;
    private final RunPlanner planner;
    private final InvocationLog log = InvocationLog.of(FunctionEnvironment.current());
    /** SnapStart hooks: warm-up before the snapshot, fresh entropy (and a cold start to come) after each restore. */
    private final Priming priming = ProducerPriming.hooks().afterRestore(log::restored).register();

    public ProducerHandler() {
        this(ProducerConfig.from(FunctionEnvironment.current()), AwsClients.s3(), AwsClients.sqs(), AwsClients.dynamoDb());
    }

    ProducerHandler(ProducerConfig config, S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb) {
        this.parser = new RunSpecParser(config.limits());
        RunPlanner planner = RunPlanner.create(s3, sqs, dynamoDb, config.tableName(), config.tasksQueueUrl(), config.limits(),
                config.sendCallsInFlight());
        this.planner = config.recordHost() ? planner.recordingHost(RunHost::capture) : planner;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] event = input.readAllBytes();
        byte[] response = log.around(context, () -> plan(event));
        output.write(response);
    }

    private byte[] plan(byte[] event) {
        Map<String, Object> specJson;
        try {
            specJson = Json.parseObject(new String(event, StandardCharsets.UTF_8));
        } catch (JsonException e) {
            throw new InvalidRunSpecException(List.of("the event is not a JSON run spec: " + e.getMessage()));
        }
        RunSpec spec = parser.parse(specJson);
        RunPlanner.PlanResult result = planner.plan(spec, specJson, sent -> { });
        return Json.write(result.toJson()).getBytes(StandardCharsets.UTF_8);
    }
}
