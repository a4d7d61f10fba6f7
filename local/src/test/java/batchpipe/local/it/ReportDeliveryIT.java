package batchpipe.local.it;

import batchpipe.aggregator.AggregatorHandler;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.json.Json;
import batchpipe.common.table.ItemCodec;
import batchpipe.common.table.TableKeys;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.SharedEmulators;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.StackTemplate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.eventbridge.EventBridgeClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.S3Object;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.Message;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * The aggregator's deliveries against moto_server (S3, EventBridge and SQS emulated in one Python
 * process, which this test starts and stops), with the run's records in the local stack's dynalite:
 * after a completed run is reported, its five files are in the bucket under reports/&lt;runId&gt;/, the
 * summary item is small and names them, and a rule on the default bus that matches the Run Completed
 * event delivers it to an SQS queue, from which the test receives it. The handler is built as Lambda
 * builds it, and reaches moto only through the standard SDK endpoint settings.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ReportDeliveryIT {
    private static final String RUN_ID = "delivery-run";
    private static final String BUCKET = "deliveryit-reports";
    private static final String FOLDER = "reports/" + RUN_ID + "/";
    private static final List<String> ENDPOINT_PROPERTIES = List.of("aws.endpointUrlS3", "aws.endpointUrlEventBridge");
    /** Distinct countBy values per task: report.json grows with them, the summary item must not. */
    private static final int VALUES_PER_TASK = 2_000;

    private final Map<String, String> previousProperties = new HashMap<>();
    private Process moto;
    private Path motoLog;
    private LocalStack stack;
    private S3Client s3;
    private SqsClient sqs;
    private EventBridgeClient eventBridge;
    private String queueUrl;
    private Map<String, Object> response;

    @BeforeAll
    void reportACompletedRunAgainstMoto() throws Exception {
        assumeTrue(motoInstalled(), "python3 with moto is not installed: the moto_server delivery test is skipped (pip install 'moto[server]')");
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        motoLog = Files.createTempFile("moto-server", ".log");
        moto = new ProcessBuilder("python3", "-m", "moto.server", "-H", "127.0.0.1", "-p", Integer.toString(port))
                .redirectErrorStream(true).redirectOutput(motoLog.toFile()).start();
        awaitListening(port, Duration.ofSeconds(60));
        URI endpoint = URI.create("http://127.0.0.1:" + port);

        stack = SharedEmulators.stack(StackTemplate.load(ProjectHome.find().resolve("template.yaml"), Map.of()), "deliveryit");
        stack.useForThisProcess();
        // DynamoDB stays on the local stack; S3 and EventBridge go to moto, through the SDK's own settings.
        for (String property : ENDPOINT_PROPERTIES) {
            previousProperties.put(property, System.getProperty(property));
            System.setProperty(property, endpoint.toString());
        }

        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(LocalStack.ACCESS_KEY, LocalStack.SECRET_KEY));
        s3 = S3Client.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(credentials).forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED).httpClient(UrlConnectionHttpClient.create()).build();
        sqs = SqsClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();
        eventBridge = EventBridgeClient.builder().endpointOverride(endpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
                .httpClient(UrlConnectionHttpClient.create()).build();

        s3.createBucket(b -> b.bucket(BUCKET));
        queueUrl = sqs.createQueue(b -> b.queueName("run-completed")).queueUrl();
        String queueArn = sqs.getQueueAttributes(b -> b.queueUrl(queueUrl).attributeNames(QueueAttributeName.QUEUE_ARN))
                .attributes().get(QueueAttributeName.QUEUE_ARN);
        // The rule a user would write to route the event to email or chat; here to a queue the test reads.
        eventBridge.putRule(b -> b.name("batchpipe-run-completed").eventBusName("default")
                .eventPattern("{\"source\":[\"batchpipe\"],\"detail-type\":[\"Run Completed\"]}"));
        eventBridge.putTargets(b -> b.rule("batchpipe-run-completed").eventBusName("default").targets(t -> t.id("queue").arn(queueArn)));

        String table = stack.ref("RunsTable");
        writeCompletedRun(table);
        Map<String, String> environment = Map.of("TABLE_NAME", table, "REPORT_BUCKET", BUCKET, "REPORT_PREFIX", "reports/");
        AggregatorHandler handler = FunctionEnvironment.withVariables(environment, AggregatorHandler::new);
        String completion = Json.write(Map.of("Records", List.of(Map.of("messageId", "m1", "body", Json.write(Map.of("runId", RUN_ID))))));
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        handler.handleRequest(new ByteArrayInputStream(completion.getBytes(StandardCharsets.UTF_8)), out, null);
        response = Json.parseObject(out.toString(StandardCharsets.UTF_8));
    }

    @AfterAll
    void stopMotoAndTheStack() throws Exception {
        previousProperties.forEach((property, value) -> {
            if (value == null) System.clearProperty(property);
            else System.setProperty(property, value);
        });
        for (AutoCloseable client : new AutoCloseable[]{s3, sqs, eventBridge, stack}) {
            if (client != null) client.close();
        }
        if (moto != null) {
            moto.destroy();
            if (!moto.waitFor(10, TimeUnit.SECONDS)) moto.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
        if (motoLog != null) Files.deleteIfExists(motoLog);
    }

    @Test
    @SuppressWarnings("unchecked")
    void theFourReportFilesAreInTheBucketUnderTheRunsFolder() {
        assertThat((List<Object>) response.get("batchItemFailures")).as("the completion message was handled").isEmpty();
        List<String> keys = s3.listObjectsV2(b -> b.bucket(BUCKET).prefix(FOLDER)).contents().stream().map(S3Object::key).toList();
        assertThat(keys).containsExactlyInAnyOrder(FOLDER + "report.json", FOLDER + "report.md", FOLDER + "report.html", FOLDER + "tasks.csv",
                FOLDER + "countby.csv");
        Map<String, Object> report = Json.parseObject(s3.getObjectAsBytes(b -> b.bucket(BUCKET).key(FOLDER + "report.json")).asUtf8String());
        assertThat(report).containsEntry("runId", RUN_ID).containsEntry("status", "complete");
        assertThat((Map<String, Object>) ((Map<String, Object>) report.get("countBy")).get("user")).hasSize(3 * VALUES_PER_TASK);
        assertThat(s3.headObject(b -> b.bucket(BUCKET).key(FOLDER + "report.html")).contentType()).startsWith("text/html");
    }

    @Test
    void theSummaryItemIsUnder4KbAndNamesTheFiles() {
        Map<String, AttributeValue> item = stack.dynamoDb().getItem(b -> b.tableName(stack.ref("RunsTable")).consistentRead(true)
                .key(Map.of(TableKeys.PK, AttributeValue.fromS(TableKeys.runPk(RUN_ID)), TableKeys.SK, AttributeValue.fromS(TableKeys.SUMMARY_SK))))
                .item();

        assertThat(itemBytes(item)).isLessThan(4_096);
        assertThat(item).doesNotContainKey("report").containsEntry("status", AttributeValue.fromS("complete"))
                .containsEntry("reportBucket", AttributeValue.fromS(BUCKET)).containsEntry("reportPrefix", AttributeValue.fromS(FOLDER))
                .containsEntry("completionEvent", AttributeValue.fromS("EventBridge default bus"));
        assertThat(item.get("reportKeys").l()).extracting(AttributeValue::s)
                .containsExactly(FOLDER + "report.json", FOLDER + "report.md", FOLDER + "tasks.csv", FOLDER + "countby.csv", FOLDER + "report.html");
    }

    @Test
    @SuppressWarnings("unchecked")
    void theRunCompletedEventReachesTheRulesQueue() {
        List<Message> messages = sqs.receiveMessage(b -> b.queueUrl(queueUrl).waitTimeSeconds(10).maxNumberOfMessages(10)).messages();

        assertThat(messages).hasSize(1);
        Map<String, Object> event = Json.parseObject(messages.get(0).body());
        assertThat(event).containsEntry("source", "batchpipe").containsEntry("detail-type", "Run Completed");
        Map<String, Object> detail = (Map<String, Object>) event.get("detail");
        assertThat(detail).containsEntry("runId", RUN_ID).containsEntry("label", "nightly").containsEntry("status", "complete");
        assertThat((Map<String, Object>) detail.get("headline")).containsEntry("tasks", 3L).containsEntry("plannedTasks", 3L)
                .containsKeys("tasksPerSecond", "taskDurationP99Ms", "costPerRun");
        Map<String, Object> report = (Map<String, Object>) detail.get("report");
        assertThat(report).containsEntry("bucket", BUCKET).containsEntry("prefix", FOLDER).containsEntry("uri", "s3://" + BUCKET + "/" + FOLDER);
        assertThat((List<Object>) report.get("keys")).hasSize(5).contains(FOLDER + "report.json");
    }

    /** A finished run of three scan tasks as the producer and the workers record it, each task with a wide countBy. */
    private void writeCompletedRun(String table) {
        Map<String, Object> run = new LinkedHashMap<>();
        run.put(TableKeys.PK, TableKeys.runPk(RUN_ID));
        run.put(TableKeys.SK, TableKeys.RUN_SK);
        run.put("runId", RUN_ID);
        run.put("label", "nightly");
        run.put("createdAt", 1_000L);
        run.put("planned", Map.of("scan", 3L, "hash", 0L, "total", 3L));
        stack.dynamoDb().putItem(b -> b.tableName(table).item(ItemCodec.toItem(run)));
        for (int t = 0; t < 3; t++) {
            Map<String, Long> users = new LinkedHashMap<>();
            for (int v = 0; v < VALUES_PER_TASK; v++) users.put("user-" + t + "-" + v + "@example.com", (long) v + 1);
            String taskId = "scan-00000" + t;
            Map<String, Object> task = new LinkedHashMap<>();
            task.put(TableKeys.PK, TableKeys.runPk(RUN_ID));
            task.put(TableKeys.SK, TableKeys.TASK_PREFIX + taskId);
            // as the worker writes every task record: the aggregator reads it as a TaskRecord, which names its run
            task.put("runId", RUN_ID);
            task.put("taskId", taskId);
            task.put("kind", "scan");
            task.put("status", "done");
            task.put("enqueuedAt", 1_100L);
            task.put("startedAt", 1_500L + t);
            task.put("finishedAt", 3_000L + t);
            task.put("durationMs", 1_500L);
            task.put("events", (long) VALUES_PER_TASK);
            task.put("countBy", Map.of("user", users));
            stack.dynamoDb().putItem(b -> b.tableName(table).item(ItemCodec.toItem(task)));
        }
    }

    /** DynamoDB's item size: each attribute's name plus its value (strings as UTF-8; the rest as printed, an over-estimate). */
    private static int itemBytes(Map<String, AttributeValue> item) {
        int bytes = 0;
        for (Map.Entry<String, AttributeValue> e : item.entrySet()) {
            AttributeValue v = e.getValue();
            bytes += e.getKey().getBytes(StandardCharsets.UTF_8).length
                    + (v.s() != null ? v.s().getBytes(StandardCharsets.UTF_8).length : v.toString().getBytes(StandardCharsets.UTF_8).length);
        }
        return bytes;
    }

    private static boolean motoInstalled() {
        try {
            Process check = new ProcessBuilder("python3", "-c", "import moto.server").redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            return check.waitFor(60, TimeUnit.SECONDS) && check.exitValue() == 0;
        } catch (IOException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    private void awaitListening(int port, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        while (System.nanoTime() < deadline) {
            if (!moto.isAlive()) {
                throw new IllegalStateException("moto_server exited with " + moto.exitValue() + ": " + Files.readString(motoLog));
            }
            try (Socket socket = new Socket()) {
                socket.connect(new InetSocketAddress("127.0.0.1", port), 200);
                return;
            } catch (IOException notYet) {
                Thread.sleep(100);
            }
        }
        throw new IllegalStateException("moto_server did not listen on port " + port + " within " + timeout.toSeconds() + " s: "
                + Files.readString(motoLog));
    }
}
