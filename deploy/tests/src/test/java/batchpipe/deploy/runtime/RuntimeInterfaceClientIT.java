package batchpipe.deploy.runtime;

import batchpipe.common.json.Json;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.deploy.template.TemplateAsDeployed;
import batchpipe.local.runtime.LambdaProcess;
import batchpipe.local.runtime.RuntimeApiServer;
import batchpipe.local.sample.SampleData;
import batchpipe.local.sample.SampleRun;
import batchpipe.local.stack.LocalStack;
import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.producer.run.RunStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import java.io.PrintStream;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * Each function's built artifact (deploy/functions/&lt;module&gt;/target/function, what sam build
 * ships) under the real Lambda Java runtime, aws-lambda-java-runtime-interface-client, in its own
 * JVM, started as the template deploys it: with SnapStart's init (before-checkpoint hooks, restore,
 * after-restore hooks) where the function has SnapStart, an on-demand init where it has not (the
 * aggregator), fed the samples in events/ through a Runtime API server in this test, against the
 * local stack as its AWS.
 * The stack is named "batchpipe" because the samples name its bucket, batchpipe-databucket.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class RuntimeInterfaceClientIT {
    private static final String STACK_NAME = "batchpipe";
    private static final Duration INIT_AND_INVOKE = Duration.ofMinutes(3);

    private record Running(FunctionDefinition definition, RuntimeApiServer api, LambdaProcess process) {
    }

    private Path home;
    private Path functionsDir;
    private Path runtimeDir;
    private Path logs;
    private LocalStack stack;
    private final Map<String, Running> running = new LinkedHashMap<>();

    @BeforeAll
    void startTheLocalStackWithTheSampleRun() throws Exception {
        home = ProjectHome.find();
        functionsDir = requiredDirectory("batchpipe.functions.dir");
        runtimeDir = requiredDirectory("batchpipe.runtime.dir");
        logs = Path.of("target", "ric-logs").toAbsolutePath();
        Files.createDirectories(logs);
        stack = LocalStack.start(home, StackTemplate.load(home.resolve("template.yaml"), Map.of()), STACK_NAME, LocalStack.Ports.free());
        stack.useForThisProcess();
        try (PrintStream sampleLog = new PrintStream(Files.newOutputStream(logs.resolve("sample-run.log")), true, StandardCharsets.UTF_8)) {
            SampleRun.load(stack, sampleLog);
        }
    }

    @AfterAll
    void stopEverything() throws Exception {
        for (Running r : running.values()) {
            r.process().close();
            r.api().close();
        }
        if (stack != null) stack.close();
    }

    @Test
    void worker_mixedBatch_reportsExactlyThePoisonMessage() throws Exception {
        Map<String, Object> response = invoke("WorkerFunction", "worker", "worker-mixed-with-poison.json");
        assertThat(failedItemIds(response)).containsExactly("33333333-0000-4000-8000-000000000003");
    }

    @ParameterizedTest
    @ValueSource(strings = {"worker-scan.json", "worker-hash.json"})
    void worker_sampleBatch_succeedsForEveryMessage(String event) throws Exception {
        Map<String, Object> response = invoke("WorkerFunction", "worker", event);
        assertThat(response).containsKey("batchItemFailures");
        assertThat(failedItemIds(response)).isEmpty();
    }

    /** The worker reads its event itself (a stream handler): a document that is not an SQS event fails the invocation, so the batch comes back. */
    @Test
    void worker_eventThatIsNotAnSqsEvent_failsTheInvocationNamingTheField_andTheNextOneIsServed() throws Exception {
        Running r = started("WorkerFunction", "worker");
        RuntimeApiServer.Outcome rejected = await(r, r.api().invoke("{\"Records\":[{\"body\":\"no id\"}]}",
                Duration.ofSeconds(r.definition().timeoutSeconds())));

        assertThat(rejected.succeeded()).isFalse();
        assertThat(rejected.error()).contains("the event is not an SQS event: 'Records[0].messageId' is required");
        assertThat(failedItemIds(invoke("WorkerFunction", "worker", "worker-mixed-with-poison.json")))
                .containsExactly("33333333-0000-4000-8000-000000000003");
    }

    /** The dead-letter recorder ships in the worker's artifact: its handler loads and runs under the real runtime client. */
    @Test
    void deadLetterRecorder_sampleEvent_recordsTheTaskAndPoisonsTheMessageOfNoRun() throws Exception {
        Map<String, Object> response = invoke("DeadLetterRecorderFunction", "worker", "dead-letter-recorder.json");

        assertThat(response).containsKey("batchItemFailures");
        assertThat(failedItemIds(response)).isEmpty();
        var poisoned = stack.sqs().receiveMessage(b -> b.queueUrl(stack.ref("PoisonMessagesQueue")).maxNumberOfMessages(10)
                .waitTimeSeconds(2).messageAttributeNames("All")).messages();
        assertThat(poisoned).extracting(m -> m.body()).contains("poison: this message is not a task");
    }

    @Test
    @SuppressWarnings("unchecked")
    void producer_scheduledEvent_plansEverySampleObjectAndHashBatch() throws Exception {
        long sampleObjects = stack.s3().listObjectsV2(b -> b.bucket(stack.ref("DataBucket")).prefix(SampleData.PREFIX)).contents()
                .stream().filter(o -> o.key().endsWith(".zst")).count();
        Map<String, Object> spec = Json.parseObject(Files.readString(home.resolve("events/producer-scheduled.json")));
        long hashBatches = ((Number) ((Map<String, Object>) spec.get("hash")).get("batches")).longValue();

        Map<String, Object> response = invoke("ProducerFunction", "producer", "producer-scheduled.json");

        assertThat(sampleObjects).isPositive();
        assertThat((Map<String, Object>) response.get("planned"))
                .containsEntry("scan", sampleObjects)
                .containsEntry("hash", hashBatches);
        assertThat(((Number) response.get("enqueued")).longValue()).isEqualTo(sampleObjects + hashBatches);
        assertThat((String) response.get("runId")).isNotBlank();
    }

    @ParameterizedTest
    @ValueSource(strings = {"aggregator.json", "aggregator-on-demand.json"})
    void aggregator_completionsMessageOrOnDemandEvent_reportsTheSampleRunIntoTheBucketAndAnnouncesIt(String eventFile) throws Exception {
        // The sample run was reported in-process already: clear its files, so that only this artifact can put them back.
        String bucket = stack.ref("DataBucket");
        String folder = "reports/" + SampleRun.RUN_ID + "/";
        stack.s3().listObjectsV2(b -> b.bucket(bucket).prefix(folder)).contents()
                .forEach(o -> stack.s3().deleteObject(b -> b.bucket(bucket).key(o.key())));
        long announcedBefore = announcements(SampleRun.RUN_ID);

        Map<String, Object> response = invoke("AggregatorFunction", "aggregator", eventFile);

        if (eventFile.equals("aggregator.json")) { // the CompletionsQueue's SQS event, as in production
            assertThat(failedItemIds(response)).as("batchItemFailures").isEmpty();
        } else {
            assertThat(response).containsEntry("runId", SampleRun.RUN_ID).containsEntry("status", "complete");
        }
        assertThat(stack.s3().listObjectsV2(b -> b.bucket(bucket).prefix(folder)).contents()).extracting(o -> o.key())
                .containsExactlyInAnyOrder(folder + "report.json", folder + "report.md", folder + "report.html", folder + "tasks.csv",
                        folder + "countby.csv");
        assertThat(announcements(SampleRun.RUN_ID)).isEqualTo(announcedBefore + 1);
    }

    /** Run Completed events of the run in the local stack's events file (the stand-in for EventBridge). */
    @SuppressWarnings("unchecked")
    private long announcements(String runId) throws java.io.IOException {
        Path events = stack.runEventsFile();
        if (!Files.exists(events)) return 0;
        return Files.readAllLines(events).stream().map(Json::parseObject)
                .filter(e -> runId.equals(((Map<String, Object>) e.get("detail")).get("runId"))).count();
    }

    /** The functions the template snapshots; the aggregator runs without SnapStart (template.yaml says why). */
    @ParameterizedTest
    @ValueSource(strings = {"ProducerFunction:producer", "WorkerFunction:worker"})
    void snapStartInit_primesBeforeTheCheckpointAndReseedsAfterTheRestore(String function) throws Exception {
        String[] idAndModule = function.split(":");
        assertThat(snapStarted(idAndModule[0])).as(idAndModule[0] + " has SnapStart in template.yaml").isTrue();
        Running r = started(idAndModule[0], idAndModule[1]);
        awaitInitDone(r);

        List<String> calls = r.api().calls();
        assertThat(calls).contains("GET restore/next");
        assertThat(calls.indexOf("GET restore/next")).isLessThan(calls.indexOf("GET invocation/next"));
        Map<String, Object> primed = logLine(r, "primed before the snapshot");
        assertThat(primed.get("failed")).as("priming steps that failed").isEqualTo(List.of());
        assertThat(primed.get("function")).isEqualTo(idAndModule[1]);
        assertThat(logLine(r, "restored from the snapshot")).containsKey("reseeded");
    }

    /**
     * Powertools' fields as a log reader relies on them: each line of an invocation names its function, request
     * and service once, and cold_start is true exactly on the first invocation after the restore (whose
     * REPORT line carries the Restore Duration), whatever Powertools' own JVM-wide flag says.
     */
    @Test
    void worker_everyLogLineOfAnInvocationCarriesTheLambdaContextOnce_andOnlyTheFirstAfterTheRestoreIsCold() throws Exception {
        // An environment of its own: the other tests' invocations of the worker must not have come first.
        Running r = started("WorkerFunction#log-fields", "WorkerFunction", "worker");
        invoke(r, "worker-mixed-with-poison.json");
        invoke(r, "worker-mixed-with-poison.json");

        List<String> requests = new ArrayList<>();
        Map<String, String> coldByRequest = new LinkedHashMap<>();
        for (String line : r.process().output().lines().filter(l -> l.startsWith("{\"level\"")).toList()) {
            for (String key : List.of("function_name", "function_request_id", "cold_start", "service", "runId", "taskId", "messageId")) {
                assertThat(line.split("\"" + key + "\":", -1).length - 1).as("times " + key + " appears in " + line).isLessThanOrEqualTo(1);
            }
            Map<String, Object> fields = Json.parseObject(line);
            assertThat(fields.get("function_name")).as("function_name of " + line).isEqualTo(stack.function("WorkerFunction").functionName());
            assertThat(fields.get("service")).as("service of " + line).isEqualTo("batchpipe-worker");
            Object request = fields.get("function_request_id");
            if (request == null) continue; // init and SnapStart hooks: no request yet
            if (!coldByRequest.containsKey(String.valueOf(request))) requests.add(String.valueOf(request));
            coldByRequest.put(String.valueOf(request), String.valueOf(fields.get("cold_start")));
        }
        assertThat(requests).as("invocations that logged").hasSizeGreaterThanOrEqualTo(2);
        assertThat(coldByRequest.get(requests.get(0))).as("cold_start of the first invocation after the restore").isEqualTo("true");
        requests.subList(1, requests.size()).forEach(id -> assertThat(coldByRequest.get(id)).as("cold_start of " + id).isEqualTo("false"));
    }

    /**
     * Active tracing as Lambda runs it: the trace header on the invocation, the daemon's address in
     * AWS_XRAY_DAEMON_ADDRESS. A UDP socket of this test stands where the daemon listens and gets one
     * subsegment per S3 call, per DynamoDB call and for the scan, all under the function's segment; an
     * invocation whose header says Sampled=0 sends nothing.
     */
    @Test
    @SuppressWarnings("unchecked")
    void worker_sampledInvocation_sendsSubsegmentsOfTheS3ReadTheScanAndTheDynamoDbWritesToTheDaemon() throws Exception {
        String runId = "traced-run";
        String event = Files.readString(home.resolve("events").resolve("worker-scan.json"))
                .replace(SampleRun.EVENTS_RUN_ID, runId).replace("scan-sample-", "scan-traced-");
        List<String> taskIds = new ArrayList<>();
        for (Object record : (List<Object>) Json.parseObject(event).get("Records")) {
            taskIds.add((String) Json.parseObject((String) ((Map<String, Object>) record).get("body")).get("taskId"));
        }
        RunStore runs = new RunStore(stack.dynamoDb(), stack.ref("RunsTable"));
        runs.create(RunRecord.planned(runId, "traced", "{}", new Planned(taskIds.size(), 0, taskIds.size()), 0,
                System.currentTimeMillis(), 1));
        runs.createProgressShards(runId, taskIds, 1);

        try (DatagramSocket daemon = new DatagramSocket(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0))) {
            Running r = started("WorkerFunction#traced", "WorkerFunction", "worker",
                    Map.of("AWS_XRAY_DAEMON_ADDRESS", "127.0.0.1:" + daemon.getLocalPort()));
            String root = "1-6756a1b2-" + "0123456789abcdef01234567";
            String parent = "53995c3f42cd8ad8";

            Map<String, Object> response = invoke(r, event, "Root=" + root + ";Parent=" + parent + ";Sampled=1");

            assertThat(failedItemIds(response)).isEmpty();
            List<Map<String, Object>> subsegments = datagrams(daemon);
            assertThat(subsegments).allSatisfy(d -> assertThat(d).containsEntry("type", "subsegment")
                    .containsEntry("trace_id", root).containsEntry("parent_id", parent));
            assertThat(subsegments).extracting(d -> d.get("name")).contains("S3", "scan", "DynamoDB").isSubsetOf("S3", "scan", "DynamoDB", "SQS");
            assertThat(subsegments).filteredOn(d -> "S3".equals(d.get("name")))
                    .extracting(d -> ((Map<String, Object>) d.get("aws")).get("operation")).contains("GetObject");
            assertThat(subsegments).filteredOn(d -> "scan".equals(d.get("name"))).hasSize(taskIds.size());

            invoke(r, event, "Root=" + root + ";Parent=" + parent + ";Sampled=0");
            assertThat(datagrams(daemon)).as("subsegments of an invocation that is not sampled").isEmpty();
        }
    }

    /** The documents the daemon got until it has been quiet for a second. */
    private static List<Map<String, Object>> datagrams(DatagramSocket daemon) throws Exception {
        daemon.setSoTimeout(1000);
        List<Map<String, Object>> documents = new ArrayList<>();
        byte[] buffer = new byte[65_536];
        while (true) {
            DatagramPacket packet = new DatagramPacket(buffer, buffer.length);
            try {
                daemon.receive(packet);
            } catch (SocketTimeoutException quiet) {
                return documents;
            }
            String text = new String(packet.getData(), 0, packet.getLength(), StandardCharsets.UTF_8);
            assertThat(text).startsWith("{\"format\":\"json\",\"version\":1}\n");
            documents.add(Json.parseObject(text.substring(text.indexOf('\n') + 1)));
        }
    }

    private Map<String, Object> invoke(String logicalId, String module, String eventFile) throws Exception {
        return invoke(started(logicalId, module), eventFile);
    }

    private Map<String, Object> invoke(Running r, String eventFile) throws Exception {
        return invoke(r, Files.readString(home.resolve("events").resolve(eventFile)), null);
    }

    /** The event (JSON text) with this trace header, or with the runtime API server's unsampled one when null. */
    private Map<String, Object> invoke(Running r, String event, String traceHeader) throws Exception {
        String logicalId = r.definition().logicalId();
        String eventFile = "the event";
        Duration timeout = Duration.ofSeconds(r.definition().timeoutSeconds());
        CompletableFuture<RuntimeApiServer.Outcome> outcome = traceHeader == null ? r.api().invoke(event, timeout)
                : r.api().invoke(event, timeout, traceHeader);
        RuntimeApiServer.Outcome done = await(r, outcome);
        if (!done.succeeded()) {
            fail(logicalId + " answered " + eventFile + " with an error (" + done.errorType() + "): " + done.error()
                    + "\n--- function output ---\n" + r.process().outputTail(40));
        }
        return Json.parseObject(done.response());
    }

    private Running started(String logicalId, String module) throws Exception {
        return started(logicalId, logicalId, module);
    }

    private Running started(String key, String logicalId, String module) throws Exception {
        return started(key, logicalId, module, Map.of());
    }

    /** The function's environment called {@code key}: started on first use, then reused. */
    private Running started(String key, String logicalId, String module, Map<String, String> extraEnvironment) throws Exception {
        Running existing = running.get(key);
        if (existing != null) return existing;
        FunctionDefinition definition = stack.function(logicalId);
        Map<String, String> env = new LinkedHashMap<>(definition.environment());
        env.putAll(stack.endpointSettings());
        env.putAll(extraEnvironment);
        RuntimeApiServer api = new RuntimeApiServer("arn:aws:lambda:" + LocalStack.REGION + ":" + LocalStack.ACCOUNT
                + ":function:" + definition.functionName() + ":1");
        Path functionDir = functionsDir.resolve(module).resolve("target/function");
        LambdaProcess process = LambdaProcess.start(functionDir, runtimeDir, definition.functionName(), definition.handler(),
                definition.memoryMb(), env, api.address(), snapStarted(logicalId), logs.resolve(key + ".log"));
        Running r = new Running(definition, api, process);
        running.put(key, r);
        return r;
    }

    /** Whether the template gives the function SnapStart (Globals merged), which decides how Lambda initialises it. */
    private static boolean snapStarted(String logicalId) {
        TemplateAsDeployed template = TemplateAsDeployed.load();
        return template.snapStarted(logicalId, template.resolver(template.with(Map.of())));
    }

    private static <T> T await(Running r, CompletableFuture<T> future) throws Exception {
        long deadline = System.nanoTime() + INIT_AND_INVOKE.toNanos();
        while (!future.isDone()) {
            if (r.api().initError().isDone()) {
                fail(r.definition().logicalId() + " failed to initialise: " + r.api().initError().get()
                        + "\n--- function output ---\n" + r.process().outputTail(40));
            }
            if (!r.process().isAlive()) {
                fail(r.definition().logicalId() + " exited\n--- function output ---\n" + r.process().outputTail(40));
            }
            if (System.nanoTime() > deadline) {
                fail(r.definition().logicalId() + " did not answer within " + INIT_AND_INVOKE
                        + "; Runtime API calls: " + r.api().calls() + "\n--- function output ---\n" + r.process().outputTail(40));
            }
            Thread.sleep(20);
        }
        return future.get();
    }

    private static void awaitInitDone(Running r) throws Exception {
        // On its own virtual thread: on the common pool (one thread on 2 cores) a function that died
        // before polling would leave this loop spinning there and starve every later test.
        CompletableFuture<Void> polled = CompletableFuture.runAsync(() -> {
            while (!r.api().calls().contains("GET invocation/next") && r.process().isAlive()) {
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }, task -> Thread.ofVirtual().start(task));
        await(r, polled);
    }

    /** The function's structured log line with this message, parsed. */
    private static Map<String, Object> logLine(Running r, String message) {
        for (String line : r.process().output().lines().toList()) {
            if (line.startsWith("{") && line.contains("\"message\":\"" + message + "\"")) {
                return Json.parseObject(line);
            }
        }
        return fail(r.definition().logicalId() + " logged no '" + message + "' line\n--- function output ---\n" + r.process().outputTail(40));
    }

    @SuppressWarnings("unchecked")
    private static List<String> failedItemIds(Map<String, Object> response) {
        List<String> ids = new ArrayList<>();
        for (Object failure : (List<Object>) response.getOrDefault("batchItemFailures", List.of())) {
            ids.add(String.valueOf(((Map<String, Object>) failure).get("itemIdentifier")));
        }
        return ids;
    }

    private static Path requiredDirectory(String property) {
        String value = System.getProperty(property);
        if (value == null || !Files.isDirectory(Path.of(value))) {
            throw new IllegalStateException("system property " + property + " = " + value + " is not a directory: run this test"
                    + " through Maven (./mvnw verify), which builds the function folders and the runtime first");
        }
        return Path.of(value);
    }
}
