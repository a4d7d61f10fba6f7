package batchpipe.local.stack;

import batchpipe.local.chaos.ChaosInterceptor;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;
import software.amazon.awssdk.auth.credentials.AwsBasicCredentials;
import software.amazon.awssdk.auth.credentials.StaticCredentialsProvider;
import software.amazon.awssdk.core.checksums.RequestChecksumCalculation;
import software.amazon.awssdk.core.client.config.ClientOverrideConfiguration;
import software.amazon.awssdk.core.checksums.ResponseChecksumValidation;
import software.amazon.awssdk.http.urlconnection.UrlConnectionHttpClient;
import software.amazon.awssdk.regions.Region;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.net.URI;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * The local AWS: the emulators ({@link Emulators}: ElasticMQ, S3Proxy, dynalite) and in them the
 * queues, table and bucket template.yaml declares ({@link StackResources}), with the clients that reach
 * them. Code reaches it only through the standard SDK endpoint settings, which {@link #endpointSettings()}
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
    /** The emulators this stack started and stops, or null for emulators another owner runs. */
    private final Emulators emulators;
    /**
     * Whether this instance created its resources in emulators it does not own (one test JVM's shared
     * emulators): it then deletes its tables and empties its queues on close, so long-lived emulators hold
     * only the items and messages of live stacks.
     */
    private final boolean deletesResourcesOnClose;
    private final URI sqsEndpoint;
    private final URI s3Endpoint;
    private final URI dynamoDbEndpoint;
    private final SqsClient sqs;
    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final StackResources resources;

    private LocalStack(StackTemplate template, String stackName, Emulators emulators, boolean deletesResourcesOnClose,
                       URI sqsEndpoint, URI s3Endpoint, URI dynamoDbEndpoint) {
        this.template = template;
        this.stackName = stackName;
        this.emulators = emulators;
        this.deletesResourcesOnClose = deletesResourcesOnClose;
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
        this.resources = new StackResources(template, stackName);
    }

    /** Starts the emulators ({@link Emulators}) and creates the template's resources in them ({@link StackResources}). */
    public static LocalStack start(Path projectHome, StackTemplate template, String stackName, Ports ports) throws Exception {
        Emulators emulators = Emulators.start(projectHome, ports);
        LocalStack stack = null;
        try {
            stack = new LocalStack(template, stackName, emulators, false, emulators.sqsEndpoint(), emulators.s3Endpoint(),
                    emulators.dynamoDbEndpoint());
            stack.resources.create(stack.s3, stack.dynamoDb, stack.sqs);
            return stack;
        } catch (Exception | Error e) {
            if (stack != null) stack.closeClients();
            emulators.stopAll(e);
            throw e;
        }
    }

    /**
     * A stack of the template's resources created in emulators that stay running after it closes (the
     * integration tests share one set per JVM: starting them is most of a small test's time). Its
     * resources are named for {@code stackName}, which must be unique among the emulators' stacks;
     * closing it deletes its tables, empties its queues and stops nothing.
     */
    static LocalStack createIn(Emulators emulators, StackTemplate template, String stackName) {
        LocalStack stack = new LocalStack(template, stackName, null, true, emulators.sqsEndpoint(), emulators.s3Endpoint(),
                emulators.dynamoDbEndpoint());
        try {
            stack.resources.create(stack.s3, stack.dynamoDb, stack.sqs);
            return stack;
        } catch (RuntimeException | Error e) {
            stack.closeClients();
            throw e;
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
        LocalStack stack = new LocalStack(template, stackName, null, false, sqs, s3, dynamoDb);
        stack.resources.discover(stack.sqs, sqs);
        return stack;
    }

    /** True when all three endpoint variables point somewhere: a running local stack to attach to. */
    public static boolean endpointsConfigured(Map<String, String> env) {
        return Stream.of("AWS_ENDPOINT_URL_SQS", "AWS_ENDPOINT_URL_S3", "AWS_ENDPOINT_URL_DYNAMODB")
                .allMatch(name -> env.get(name) != null && !env.get(name).isBlank());
    }

    public boolean ownsEmulators() {
        return emulators != null;
    }

    public Map<String, TemplateResolver.Physical> physicalResources() {
        return Map.copyOf(resources.physical());
    }

    public FunctionDefinition function(String logicalId) {
        FunctionDefinition function = template.function(logicalId, stackName, resources.resolver());
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
        TemplateResolver.Physical p = resources.physical().get(logicalId);
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
        try {
            if (deletesResourcesOnClose) resources.release(dynamoDb, sqs);
        } finally {
            closeClients();
            if (emulators != null) emulators.close();
        }
    }

    private void closeClients() {
        sqs.close();
        s3.close();
        dynamoDb.close();
    }
}
