package batchpipe.worker;

import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.json.Json;
import batchpipe.common.table.RunProgress;
import batchpipe.common.table.RunPartition;
import batchpipe.common.table.TableKeys;
import batchpipe.local.sample.SampleData;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.run.RunStore;
import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.mindrot.jbcrypt.BCrypt;
import software.amazon.cloudwatchlogs.emf.config.EnvironmentConfigurationProvider;
import software.amazon.cloudwatchlogs.emf.environment.Environments;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.GetObjectRequest;
import software.amazon.awssdk.services.s3.model.S3Exception;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Proxy;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Consumer;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The worker on the local stack with one batch holding a scan task, a hash task, a message that is not
 * a task and a scan whose first S3 read fails transiently; then the same batch delivered again.
 */
class WorkerIT {
    private static final String RUN = "worker-it";
    private static LocalStack stack;

    @BeforeAll
    static void start() throws Exception {
        // The handler is called directly here, not through the local runtime: tell the EMF library it is
        // on Lambda (metrics as stdout lines) rather than let it look for a CloudWatch agent.
        EnvironmentConfigurationProvider.getConfig().setEnvironmentOverride(Environments.Lambda);
        stack = SharedEmulators.stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), "workerit");
        stack.useForThisProcess();
        SampleData.seed(stack.s3(), stack.ref("DataBucket"), 2, 2_000, 11);
        RunStore runs = new RunStore(stack.dynamoDb(), stack.ref("RunsTable"));
        runs.create(RunRecord.planned(RUN, null, "{}", new Planned(2, 1, 3), 0, Instant.now().toEpochMilli(), 1));
        runs.createProgressShards(RUN, List.of("scan-a", "scan-b", "hash-000001"), 1);
    }

    @AfterAll
    static void stop() {
        if (stack != null) stack.close();
    }

    /** An S3 client whose first read of {@code flakyKey} fails with a 503, as a throttled or broken read would. */
    private static S3Client failingOnceFor(String flakyKey) {
        Set<String> failed = ConcurrentHashMap.newKeySet();
        S3Client real = stack.s3();
        return (S3Client) Proxy.newProxyInstance(S3Client.class.getClassLoader(), new Class<?>[] {S3Client.class}, (proxy, method, args) -> {
            if (method.getName().equals("getObject") && args.length == 1) {
                GetObjectRequest request = args[0] instanceof GetObjectRequest r ? r : build(args[0]);
                if (request.key().equals(flakyKey) && failed.add(flakyKey)) {
                    throw S3Exception.builder().statusCode(503).message("Slow Down (injected)").build();
                }
                return real.getObject(request);
            }
            try {
                return method.invoke(real, args);
            } catch (InvocationTargetException e) {
                throw e.getCause();
            }
        });
    }

    @SuppressWarnings("unchecked")
    private static GetObjectRequest build(Object consumer) {
        GetObjectRequest.Builder builder = GetObjectRequest.builder();
        ((Consumer<GetObjectRequest.Builder>) consumer).accept(builder);
        return builder.build();
    }

    private static SQSEvent.SQSMessage message(String id, String body, int receiveCount) {
        SQSEvent.SQSMessage m = new SQSEvent.SQSMessage();
        m.setMessageId(id);
        m.setBody(body);
        m.setAttributes(Map.of("ApproximateReceiveCount", Integer.toString(receiveCount)));
        return m;
    }

    private static String scan(String taskId, String key) {
        return Json.write(Map.of("v", 1, "runId", RUN, "taskId", taskId, "kind", "scan", "enqueuedAt", Instant.now().toString(),
                "bucket", stack.ref("DataBucket"), "key", key));
    }

    private static SQSEvent batch(int receiveCount) {
        String hash = Json.write(Map.of("v", 1, "runId", RUN, "taskId", "hash-000001", "kind", "hash", "enqueuedAt", Instant.now().toString(),
                "cost", 4, "count", 30, "prefix", "password_", "start", 1));
        SQSEvent event = new SQSEvent();
        event.setRecords(List.of(
                message("m-scan", scan("scan-a", SampleData.key(0)), receiveCount),
                message("m-hash", hash, receiveCount),
                message("m-poison", "{\"hello\":", receiveCount),
                message("m-flaky", scan("scan-b", SampleData.key(1)), receiveCount)));
        return event;
    }

    @Test
    void batch_recordsWhatSucceeded_failsThePoisonAndTheTransient_andARedeliveryChangesNothingTwice() {
        Map<String, String> env = new HashMap<>(stack.function("WorkerFunction").environment());
        env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "3538");
        WorkerHandler worker = new WorkerHandler(WorkerConfig.from(env), failingOnceFor(SampleData.key(1)), stack.sqs(), stack.dynamoDb(),
                System.nanoTime());

        SQSBatchResponse first = worker.handle(batch(1), new TestContext());
        assertThat(first.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactlyInAnyOrder("m-poison", "m-flaky");
        assertThat(taskRecords()).containsOnlyKeys("scan-a", "hash-000001");
        assertThat(hashItems()).hasSize(30);

        SQSBatchResponse second = worker.handle(batch(2), new TestContext());
        assertThat(second.getBatchItemFailures()).extracting(SQSBatchResponse.BatchItemFailure::getItemIdentifier)
                .containsExactly("m-poison");
        Map<String, Map<String, AttributeValue>> records = taskRecords();
        assertThat(records).containsOnlyKeys("scan-a", "hash-000001", "scan-b");
        assertThat(records.values()).allSatisfy(r -> assertThat(r.get("status").s()).isEqualTo("done"));
        assertThat(records.get("scan-a").get("attempt").n()).as("the first delivery's record stands").isEqualTo("1");
        assertThat(records.get("scan-b").get("attempt").n()).isEqualTo("2");
        assertThat(Long.parseLong(records.get("scan-a").get("events").n())).isPositive();
        assertThat(records.get("scan-a").get("threads").n()).isEqualTo("2");
        assertThat(records.get("scan-a").get("vcpuShare").n()).isEqualTo("2");

        List<Map<String, AttributeValue>> hashes = hashItems();
        assertThat(hashes).hasSize(30);
        for (Map<String, AttributeValue> h : hashes) {
            assertThat(BCrypt.checkpw(String.format("password_%06d", Long.parseLong(h.get("index").n())), h.get("hash").s())).isTrue();
        }
        RunProgress progress = RunProgress.read(stack.dynamoDb(), stack.ref("RunsTable"), RUN);
        assertThat(progress).isEqualTo(new RunProgress(3, 3, 3, 0, 0));
        // The run completed, so the worker told the aggregator (at least once; duplicates are harmless there).
        var completions = stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("CompletionsQueue")).maxNumberOfMessages(10)).messages();
        assertThat(completions).isNotEmpty().allSatisfy(m -> assertThat(m.body()).isEqualTo("{\"runId\":\"" + RUN + "\"}"));
    }

    private static Map<String, Map<String, AttributeValue>> taskRecords() {
        Map<String, Map<String, AttributeValue>> records = new HashMap<>();
        for (Map<String, AttributeValue> item : query(TableKeys.TASK_PREFIX)) {
            records.put(item.get("taskId").s(), item);
        }
        return records;
    }

    private static List<Map<String, AttributeValue>> hashItems() {
        return query(TableKeys.HASH_PREFIX);
    }

    private static List<Map<String, AttributeValue>> query(String skPrefix) {
        return RunPartition.items(stack.dynamoDb(), stack.ref("RunsTable"), RUN, skPrefix);
    }

    private static final class TestContext implements Context {
        private final long deadline = System.currentTimeMillis() + 120_000;

        public String getAwsRequestId() { return "req-" + System.nanoTime(); }
        public String getLogGroupName() { return "/aws/lambda/worker-it"; }
        public String getLogStreamName() { return "it"; }
        public String getFunctionName() { return "workerit-WorkerFunction"; }
        public String getFunctionVersion() { return "$LATEST"; }
        public String getInvokedFunctionArn() { return "arn:aws:lambda:us-east-1:000000000000:function:workerit-WorkerFunction"; }
        public CognitoIdentity getIdentity() { return null; }
        public ClientContext getClientContext() { return null; }
        public int getRemainingTimeInMillis() { return (int) (deadline - System.currentTimeMillis()); }
        public int getMemoryLimitInMB() { return 3538; }
        public LambdaLogger getLogger() { return null; }
    }
}
