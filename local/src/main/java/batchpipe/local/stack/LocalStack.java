package batchpipe.local.stack;

import batchpipe.local.chaos.ChaosInterceptor;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.local.template.QueueDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;
import org.elasticmq.rest.sqs.SQSRestServer;
import org.elasticmq.rest.sqs.SQSRestServerBuilder;
import org.gaul.s3proxy.AuthenticationType;
import org.gaul.s3proxy.S3Proxy;
import org.jclouds.ContextBuilder;
import org.jclouds.blobstore.BlobStoreContext;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeDefinition;
import software.amazon.awssdk.services.dynamodb.model.BillingMode;
import software.amazon.awssdk.services.dynamodb.model.KeySchemaElement;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.QueueAttributeName;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;

/**
 * The local AWS: ElasticMQ (SQS) and S3Proxy (S3) inside this JVM, dynalite (DynamoDB) as a child
 * process, and in them the queues, table and bucket template.yaml declares, created from the template
 * itself. Code reaches it only through the standard SDK endpoint settings, which {@link #endpointSettings()}
 * lists for a shell and {@link #useForThisProcess()} sets as system properties for in-process functions.
 */
public final class LocalStack implements AutoCloseable {
    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "000000000000";
    public static final String ACCESS_KEY = "batchpipe-local";
    public static final String SECRET_KEY = "batchpipe-local-secret";

    /** Ports: 0 picks a free one. */
    public record Ports(int sqs, int s3, int dynamoDb) {
        public static Ports free() {
            return new Ports(0, 0, 0);
        }
    }

    private final StackTemplate template;
    private final String stackName;
    /** What this instance started and must stop, in start order; empty when attached to a running stack. */
    private final List<AutoCloseable> owned;
    private final URI sqsEndpoint;
    private final URI s3Endpoint;
    private final URI dynamoDbEndpoint;
    private final SqsClient sqs;
    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final Map<String, TemplateResolver.Physical> physical = new LinkedHashMap<>();
    private final TemplateResolver resolver;

    private LocalStack(StackTemplate template, String stackName, List<AutoCloseable> owned,
                       URI sqsEndpoint, URI s3Endpoint, URI dynamoDbEndpoint) {
        this.template = template;
        this.stackName = stackName;
        this.owned = owned;
        this.sqsEndpoint = sqsEndpoint;
        this.s3Endpoint = s3Endpoint;
        this.dynamoDbEndpoint = dynamoDbEndpoint;
        var credentials = StaticCredentialsProvider.create(AwsBasicCredentials.create(ACCESS_KEY, SECRET_KEY));
        // The harness's own clients: marked so that injected faults (./batchpipe demo --chaos) never hit them.
        var harness = ClientOverrideConfiguration.builder().putExecutionAttribute(ChaosInterceptor.HARNESS, true).build();
        this.sqs = SqsClient.builder().endpointOverride(sqsEndpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
                .overrideConfiguration(harness).httpClient(UrlConnectionHttpClient.create()).build();
        this.s3 = S3Client.builder().endpointOverride(s3Endpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
                .overrideConfiguration(harness)
                .forcePathStyle(true)
                .requestChecksumCalculation(RequestChecksumCalculation.WHEN_REQUIRED)
                .responseChecksumValidation(ResponseChecksumValidation.WHEN_REQUIRED)
                .httpClient(UrlConnectionHttpClient.create()).build();
        this.dynamoDb = DynamoDbClient.builder().endpointOverride(dynamoDbEndpoint).region(Region.US_EAST_1).credentialsProvider(credentials)
                .overrideConfiguration(harness).httpClient(UrlConnectionHttpClient.create()).build();
        this.resolver = template.resolver(stackName, REGION, ACCOUNT, physical);
    }

    /**
     * Starts the emulators and creates the template's resources. The three emulators start at once
     * (dynalite is a Node.js process, S3Proxy and ElasticMQ load their own classes), which roughly
     * halves the wait on two cores. On any failure what was started is stopped again.
     */
    public static LocalStack start(Path projectHome, StackTemplate template, String stackName, Ports ports) throws Exception {
        ExecutorService starter = Executors.newFixedThreadPool(2, runnable -> {
            Thread thread = new Thread(runnable, "local-stack-start");
            thread.setDaemon(true);
            return thread;
        });
        Future<Dynalite> dynaliteStart = starter.submit(() -> Dynalite.start(projectHome, ports.dynamoDb()));
        Future<S3Emulator> s3Start = starter.submit(() -> S3Emulator.start(ports.s3()));
        starter.shutdown();
        List<AutoCloseable> started = new ArrayList<>();
        Throwable failure = null;
        int sqsPort = -1;
        try {
            SQSRestServer sqsServer = SQSRestServerBuilder.withInterface("127.0.0.1")
                    .withPort(ports.sqs())
                    .withAWSRegion(REGION)
                    .withAWSAccountId(ACCOUNT)
                    .start();
            started.add(() -> stopWithoutLingering(sqsServer));
            sqsPort = sqsServer.waitUntilStarted().localAddress().getPort();
        } catch (Exception | Error e) {
            failure = e;
        }
        // Wait for both of the others even after a failure, so that whatever did start is stopped.
        S3Emulator s3 = null;
        Dynalite dynalite = null;
        try {
            s3 = s3Start.get();
            started.add(s3);
        } catch (ExecutionException e) {
            failure = addFailure(failure, e.getCause());
        }
        try {
            dynalite = dynaliteStart.get();
            started.add(dynalite);
        } catch (ExecutionException e) {
            failure = addFailure(failure, e.getCause());
        }
        try {
            if (failure != null) throw failure;
            LocalStack stack = new LocalStack(template, stackName, started, URI.create("http://127.0.0.1:" + sqsPort),
                    URI.create("http://127.0.0.1:" + s3.port()), URI.create("http://127.0.0.1:" + dynalite.port()));
            stack.createResources();
            return stack;
        } catch (Throwable e) {
            for (int i = started.size() - 1; i >= 0; i--) {
                try {
                    started.get(i).close();
                } catch (Exception suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            if (e instanceof Exception exception) throw exception;
            if (e instanceof Error error) throw error;
            throw new IllegalStateException(e);
        }
    }

    /**
     * ElasticMQ's stop waits a full second for the HTTP connections our clients keep alive before it
     * gives up on them. Nothing is lost by not waiting: the queues live in this JVM and are gone either
     * way. So the stop runs on its own thread and we wait for it briefly; it finishes in the background,
     * or the JVM's exit ends it.
     */
    private static void stopWithoutLingering(SQSRestServer server) throws InterruptedException {
        Thread stop = Thread.ofPlatform().daemon().name("elasticmq-stop").start(server::stopAndWait);
        stop.join(300);
    }

    private static Throwable addFailure(Throwable first, Throwable next) {
        if (first == null) return next;
        first.addSuppressed(next);
        return first;
    }

    /** S3Proxy on a filesystem store in a temporary folder, which closing deletes. */
    private record S3Emulator(S3Proxy proxy, Path folder) implements AutoCloseable {
        static S3Emulator start(int port) throws Exception {
            Path folder = Files.createTempDirectory("batchpipe-s3-");
            try {
                Properties blobStoreProperties = new Properties();
                blobStoreProperties.setProperty("jclouds.filesystem.basedir", folder.toString());
                var blobStore = ContextBuilder.newBuilder("filesystem")
                        .overrides(blobStoreProperties)
                        .build(BlobStoreContext.class)
                        .getBlobStore();
                S3Proxy proxy = S3Proxy.builder()
                        .blobStore(blobStore)
                        .endpoint(URI.create("http://127.0.0.1:" + port))
                        .awsAuthentication(AuthenticationType.NONE, null, null)
                        .build();
                proxy.start();
                S3Emulator emulator = new S3Emulator(proxy, folder);
                try {
                    waitForS3Proxy(proxy);
                } catch (InterruptedException e) {
                    emulator.close();
                    throw e;
                }
                return emulator;
            } catch (Exception | Error e) {
                deleteTree(folder);
                throw e;
            }
        }

        int port() {
            return proxy.getPort();
        }

        @Override
        public void close() throws Exception {
            try {
                proxy.stop();
            } finally {
                deleteTree(folder);
            }
        }
    }

    /**
     * A view of a stack that {@code ./batchpipe local up} (in another process) is running, found through
     * the standard endpoint variables; its resources are looked up by their local names, nothing is
     * created and nothing is stopped on close.
     */
    public static LocalStack attach(StackTemplate template, String stackName, Map<String, String> env) {
        URI sqs = URI.create(env.get("AWS_ENDPOINT_URL_SQS"));
        URI s3 = URI.create(env.get("AWS_ENDPOINT_URL_S3"));
        URI dynamoDb = URI.create(env.get("AWS_ENDPOINT_URL_DYNAMODB"));
        LocalStack stack = new LocalStack(template, stackName, new ArrayList<>(), sqs, s3, dynamoDb);
        stack.discoverResources();
        return stack;
    }

    /** True when all three endpoint variables point somewhere: a running local stack to attach to. */
    public static boolean endpointsConfigured(Map<String, String> env) {
        return Stream.of("AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_DYNAMODB")
                .allMatch(name -> env.get(name) != null && !env.get(name).isBlank());
    }

    private void discoverResources() {
        for (String id : template.createdLogicalIdsOfType("AWS::S3::Bucket")) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::S3::Bucket");
            physical.put(id, new TemplateResolver.Physical(name, Map.of("Arn", "arn:aws:s3:::" + name, "DomainName", name)));
        }
        for (String id : template.createdLogicalIdsOfType("AWS::DynamoDB::Table")) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::DynamoDB::Table");
            physical.put(id, new TemplateResolver.Physical(name, Map.of("Arn", "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + name)));
        }
        for (String id : template.createdLogicalIdsOfType("AWS::SQS::Queue")) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::SQS::Queue");
            String url;
            try {
                url = sqs.getQueueUrl(b -> b.queueName(name)).queueUrl();
            } catch (RuntimeException e) {
                throw new IllegalStateException("the local stack at " + sqsEndpoint + " has no queue " + name
                        + " (is `./batchpipe local up` running with stack name '" + stackName + "'?): " + e.getMessage(), e);
            }
            physical.put(id, new TemplateResolver.Physical(url, Map.of(
                    "Arn", "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + name, "QueueName", name, "QueueUrl", url)));
        }
        registerFunctions();
    }

    private void registerFunctions() {
        for (String id : template.createdFunctionIds()) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::Lambda::Function");
            physical.put(id, new TemplateResolver.Physical(name,
                    Map.of("Arn", "arn:aws:lambda:" + REGION + ":" + ACCOUNT + ":function:" + name)));
        }
        // Named, not created: nothing here stores logs, but the aggregator's WORKER_LOG_GROUPS refers to them.
        // Its REPORT lines come from the in-process runtime instead (the aggregator sees the local table and
        // no CloudWatch Logs endpoint, and queries nothing).
        for (String id : template.createdLogicalIdsOfType("AWS::Logs::LogGroup")) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::Logs::LogGroup");
            physical.put(id, new TemplateResolver.Physical(name,
                    Map.of("Arn", "arn:aws:logs:" + REGION + ":" + ACCOUNT + ":log-group:" + name + ":*")));
        }
    }

    public boolean ownsEmulators() {
        return !owned.isEmpty();
    }

    public Map<String, TemplateResolver.Physical> physicalResources() {
        return Map.copyOf(physical);
    }

    private static void waitForS3Proxy(S3Proxy proxy) throws InterruptedException {
        for (int i = 0; i < 200 && !"STARTED".equals(proxy.getState()); i++) {
            Thread.sleep(10);
        }
    }

    private void createResources() {
        // Buckets and tables reference nothing; queues in an order where redrive targets exist first.
        for (String id : template.createdLogicalIdsOfType("AWS::S3::Bucket")) {
            String name = StackTemplate.physicalName(stackName, id, "AWS::S3::Bucket");
            s3.createBucket(b -> b.bucket(name));
            physical.put(id, new TemplateResolver.Physical(name, Map.of("Arn", "arn:aws:s3:::" + name, "DomainName", name)));
        }
        for (String id : template.createdLogicalIdsOfType("AWS::DynamoDB::Table")) {
            createTable(id);
        }
        // A redrive target must exist before its source, and targets chain (TasksQueue -> its dead-letter
        // queue -> the poison queue): create whatever has its target already, round after round.
        List<QueueDefinition> pending = new ArrayList<>(template.queues(resolver));
        while (!pending.isEmpty()) {
            List<QueueDefinition> ready = pending.stream()
                    .filter(q -> q.deadLetterLogicalId() == null || physical.containsKey(q.deadLetterLogicalId())).toList();
            if (ready.isEmpty()) {
                throw new IllegalStateException("template.yaml: the redrive targets of " + pending.stream().map(QueueDefinition::logicalId).toList()
                        + " form a cycle or name a queue the template does not declare");
            }
            ready.forEach(this::createQueue);
            pending.removeAll(ready);
        }
        registerFunctions();
    }

    @SuppressWarnings("unchecked")
    private void createTable(String id) {
        Map<String, Object> p = (Map<String, Object>) resolver.resolve(template.properties(id));
        String name = StackTemplate.physicalName(stackName, id, "AWS::DynamoDB::Table");
        List<AttributeDefinition> attributes = new ArrayList<>();
        for (Object a : (List<Object>) p.get("AttributeDefinitions")) {
            Map<String, Object> attribute = (Map<String, Object>) a;
            attributes.add(AttributeDefinition.builder().attributeName((String) attribute.get("AttributeName"))
                    .attributeType((String) attribute.get("AttributeType")).build());
        }
        List<KeySchemaElement> keys = new ArrayList<>();
        for (Object k : (List<Object>) p.get("KeySchema")) {
            Map<String, Object> key = (Map<String, Object>) k;
            keys.add(KeySchemaElement.builder().attributeName((String) key.get("AttributeName")).keyType((String) key.get("KeyType")).build());
        }
        dynamoDb.createTable(b -> b.tableName(name).attributeDefinitions(attributes).keySchema(keys).billingMode(BillingMode.PAY_PER_REQUEST));
        physical.put(id, new TemplateResolver.Physical(name, Map.of("Arn", "arn:aws:dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + name)));
    }

    private void createQueue(QueueDefinition queue) {
        String name = StackTemplate.physicalName(stackName, queue.logicalId(), "AWS::SQS::Queue");
        Map<QueueAttributeName, String> attributes = new HashMap<>();
        attributes.put(QueueAttributeName.VISIBILITY_TIMEOUT, Integer.toString(queue.visibilityTimeoutSeconds()));
        if (queue.messageRetentionSeconds() != null) {
            attributes.put(QueueAttributeName.MESSAGE_RETENTION_PERIOD, Integer.toString(queue.messageRetentionSeconds()));
        }
        if (queue.deadLetterLogicalId() != null) {
            String dlqArn = physical.get(queue.deadLetterLogicalId()).attributes().get("Arn");
            attributes.put(QueueAttributeName.REDRIVE_POLICY,
                    "{\"deadLetterTargetArn\":\"" + dlqArn + "\",\"maxReceiveCount\":" + queue.maxReceiveCount() + "}");
        }
        String url = sqs.createQueue(b -> b.queueName(name).attributes(attributes)).queueUrl();
        physical.put(queue.logicalId(), new TemplateResolver.Physical(url, Map.of(
                "Arn", "arn:aws:sqs:" + REGION + ":" + ACCOUNT + ":" + name,
                "QueueName", name,
                "QueueUrl", url)));
    }

    public FunctionDefinition function(String logicalId) {
        FunctionDefinition function = template.function(logicalId, stackName, resolver);
        if (!function.environment().containsKey("REPORT_BUCKET")) return function;
        // The function that reports runs announces them on EventBridge, which this stack does not have:
        // RUN_EVENTS_FILE makes it append each Run Completed event to a JSON-lines file instead.
        Map<String, String> environment = new LinkedHashMap<>(function.environment());
        environment.put("RUN_EVENTS_FILE", runEventsFile().toAbsolutePath().toString());
        return new FunctionDefinition(function.logicalId(), function.functionName(), function.handler(), function.runtime(),
                function.memoryMb(), function.timeoutSeconds(), function.architectures(), environment, function.sqsEvents());
    }

    /** Where this stack's Run Completed events go, one JSON line each: out/local/&lt;stack&gt;-run-completed.jsonl. */
    public Path runEventsFile() {
        return runEventsFile(stackName);
    }

    /** {@link #runEventsFile()} of the local stack named {@code stackName}, for a process attached to it. */
    public static Path runEventsFile(String stackName) {
        return Path.of("out", "local", stackName + "-run-completed.jsonl");
    }

    public StackTemplate template() {
        return template;
    }

    public String stackName() {
        return stackName;
    }

    /** The local name or URL of a template resource ({@code !Ref} value). */
    public String ref(String logicalId) {
        TemplateResolver.Physical p = physical.get(logicalId);
        if (p == null) throw new IllegalArgumentException("the local stack has no resource '" + logicalId + "'");
        return p.ref();
    }

    public SqsClient sqs() {
        return sqs;
    }

    public S3Client s3() {
        return s3;
    }

    public DynamoDbClient dynamoDb() {
        return dynamoDb;
    }

    /** The standard SDK settings that point any AWS client at this stack. */
    public Map<String, String> endpointSettings() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("AWS_ENDPOINT_URL_SQS", sqsEndpoint.toString());
        env.put("AWS_ENDPOINT_URL_S3", s3Endpoint.toString());
        env.put("AWS_ENDPOINT_URL_DYNAMODB", dynamoDbEndpoint.toString());
        env.put("AWS_REGION", REGION);
        env.put("AWS_DEFAULT_REGION", REGION);
        env.put("AWS_ACCESS_KEY_ID", ACCESS_KEY);
        env.put("AWS_SECRET_ACCESS_KEY", SECRET_KEY);
        return env;
    }

    /**
     * Points SDK clients built in this JVM at the stack through the SDK's own system properties (the
     * in-process counterpart of the environment variables above).
     */
    public void useForThisProcess() {
        System.setProperty("aws.endpointUrlSqs", sqsEndpoint.toString());
        System.setProperty("aws.endpointUrlS3", s3Endpoint.toString());
        System.setProperty("aws.endpointUrlDynamoDb", dynamoDbEndpoint.toString());
        System.setProperty("aws.region", REGION);
        System.setProperty("aws.accessKeyId", ACCESS_KEY);
        System.setProperty("aws.secretAccessKey", SECRET_KEY);
    }

    @Override
    public void close() {
        sqs.close();
        s3.close();
        dynamoDb.close();
        // The emulators do not depend on each other: stopping them at once saves most of a second.
        List<Thread> stopping = new ArrayList<>();
        for (AutoCloseable emulator : owned) {
            stopping.add(Thread.ofPlatform().name("local-stack-stop").start(() -> {
                try {
                    emulator.close();
                } catch (Exception ignored) {
                    // stop the rest anyway
                }
            }));
        }
        for (Thread thread : stopping) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private static void deleteTree(Path root) {
        if (!Files.exists(root)) return;
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException ignored) {
            // a temp folder left behind is harmless
        }
    }
}
