package batchpipe.deploy.template;

import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.CloudFormationYaml;
import batchpipe.local.template.FunctionDefinition;
import batchpipe.local.template.QueueDefinition;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * template.yaml against the code it deploys: the handlers exist, every variable the code reads is
 * set (and nothing is set that nobody reads), every SDK call the code makes is allowed on the
 * resource it reaches (and nothing more is allowed), every SQS source can be polled and has a
 * dead-letter queue. The code is read from the sources of each function's module and of the common
 * classes it names. The AWS limits that depend on parameter values (visibility against timeouts,
 * SnapStart's, the schedule's spec) are DeployRulesTest's.
 */
class TemplateWiringTest {
    /** Variables a function reads with a default on purpose: the template leaves them unset. */
    private static final Map<String, String> DEFAULTED = Map.of(
            "SEND_CALLS_IN_FLIGHT", "producer: 8 SendMessageBatch calls in flight unless tuned",
            "RUNS_PER_MONTH", "aggregator: the monthly cost projection assumes 30 runs unless told",
            "PRICE_TABLE_FILE", "aggregator: the bundled, dated price table unless a file overrides it",
            "WORKER_COUNT", "worker: threads follow the function's memory (its vCPU share) unless overridden",
            "SAFETY_MARGIN_MS", "worker: 10 s kept free at the end of an invocation unless tuned",
            "RUN_EVENTS_FILE", "aggregator: unset on AWS, where Run Completed goes to EventBridge; only the local stack, which has no"
                    + " EventBridge, sets it to a JSON-lines file",
            "BATCHPIPE_RECORD_HOST", "producer: unset on AWS, where the machine a run's functions ran on is Lambda's; only the local"
                    + " runtime sets it, so a local run's record and reports name this machine");
    /** Set on a function for a library it ships rather than for its own code. */
    private static final Map<String, String> READ_BY_LIBRARIES = Map.of(
            "AWS_EMF_ENVIRONMENT", "aws-embedded-metrics (under Powertools metrics): Lambda, so the first flush does not probe EC2 and ECS endpoints",
            "POWERTOOLS_SERVICE_NAME", "Powertools logging: the service field of every log line",
            "POWERTOOLS_LOG_LEVEL", "Powertools logging (and log4j2.xml): the lowest level logged, from the LogLevel parameter");
    /** Granted beyond the code's own calls, on purpose. */
    private static final Map<String, Set<String>> DELIBERATE_EXTRAS = Map.of(
            "worker", Set.of("s3:ListBucket")); // S3 answers a missing key with 404 (permanent, clear message), not 403
    private static final Set<String> POLL_ACTIONS = Set.of("sqs:ReceiveMessage", "sqs:DeleteMessage", "sqs:GetQueueAttributes");
    private static final Set<String> LOG_ACTIONS = Set.of("logs:CreateLogStream", "logs:PutLogEvents");
    private static final Pattern SDK_CALL = Pattern.compile("\\b(dynamoDb|s3|sqs|logs|eventBridge)\\s*\\.\\s*([a-z][A-Za-z0-9]*)\\s*\\(");
    /**
     * Actions the Service Authorization Reference lists without a resource type, so that they can only be
     * granted on "*", each with the reason the code needs it (docs/SECURITY.md).
     */
    private static final Map<String, String> ONLY_ON_EVERY_RESOURCE = Map.of(
            "logs:GetQueryResults", "aggregator: reads the results of its own Logs Insights queries, by query id",
            "xray:PutTraceSegments", "every function with Tracing=Active: the X-Ray daemon sends its segments with the function's role",
            "xray:PutTelemetryRecords", "every function with Tracing=Active: the daemon's own telemetry");
    /** Stands for the account's default event bus, which no stack owns, among the logical ids a need reaches. */
    private static final String DEFAULT_EVENT_BUS = "account:default-event-bus";
    private static final Pattern REQUIRED_VARIABLE = Pattern.compile("FunctionEnvironment\\.require\\([^;\"]*\"([A-Z0-9_]+)\"");
    private static final Pattern OPTIONAL_VARIABLE = Pattern.compile(
            "(?:FunctionEnvironment\\.intValue\\([^;\"]*|getOrDefault\\(\\s*|System\\.getenv\\(\\s*)\"([A-Z0-9_]+)\"");

    private static Path home;
    private static StackTemplate template;
    private static TemplateResolver resolver;
    private static Map<String, Object> resources;
    private static Map<String, Object> globals;

    @BeforeAll
    @SuppressWarnings("unchecked")
    static void load() throws IOException {
        home = ProjectHome.find();
        Path file = home.resolve("template.yaml");
        template = StackTemplate.load(file, Map.of());
        Map<String, Object> root = CloudFormationYaml.load(file);
        resources = (Map<String, Object>) root.get("Resources");
        globals = (Map<String, Object>) ((Map<String, Object>) root.get("Globals")).get("Function");
        resolver = resolverFor(template);
    }

    @Test
    void everyFunction_hasAHandlerClassWithItsMethodInTheModuleItShips() throws Exception {
        assertThat(template.functionIds()).isNotEmpty();
        for (String id : template.functionIds()) {
            FunctionDefinition f = function(id);
            Class<?> handler = Class.forName(f.handlerClass());
            assertThat(handler.getMethods()).as(id + " handler method").anyMatch(m -> m.getName().equals(f.handlerMethod()));
            assertThat(Files.isDirectory(home.resolve(moduleOf(id)).resolve("src/main/java"))).as(id + " module").isTrue();
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFunction_isBuiltBySamThroughAMakefileTargetThatBuildsItsModule() throws IOException {
        String makefile = Files.readString(home.resolve("Makefile"));
        for (String id : template.functionIds()) {
            Map<String, Object> metadata = (Map<String, Object>) ((Map<String, Object>) resources.get(id)).get("Metadata");
            assertThat(metadata).as(id + " Metadata").containsEntry("BuildMethod", "makefile");
            // sam build builds every function, conditional ones too, with `make build-<LogicalId>`.
            Matcher target = Pattern.compile("(?m)^build-" + id + ":\\s*\\n\\t(.*)$").matcher(makefile);
            assertThat(target.find()).as("Makefile target build-" + id).isTrue();
            assertThat(target.group(1)).as("build-" + id + " recipe").contains("bin/build-function " + moduleOf(id) + " ");
        }
    }

    @Test
    void everyVariableTheCodeReads_isSetOrDefaultsOnPurpose() throws IOException {
        for (String id : template.functionIds()) {
            Map<String, String> env = function(id).environment();
            Code code = code(id);
            assertThat(env.keySet()).as(id + ": variables its code requires").containsAll(code.requiredVariables);
            for (String optional : code.optionalVariables) {
                // Lambda and the SDK set AWS_*; Lambda sets the invocation's trace header in _X_AMZN_TRACE_ID.
                if (env.containsKey(optional) || optional.startsWith("AWS_") || optional.equals("_X_AMZN_TRACE_ID")) continue;
                assertThat(DEFAULTED).as(id + " reads " + optional + " with a default: set it in template.yaml, or add it to"
                        + " DEFAULTED with the reason it is left unset").containsKey(optional);
            }
        }
    }

    @Test
    void everyVariableSetOnAFunction_isReadByItsCodeOrItsRuntime() throws IOException {
        for (String id : template.functionIds()) {
            Code code = code(id);
            for (String variable : function(id).environment().keySet()) {
                boolean read = code.requiredVariables.contains(variable) || code.optionalVariables.contains(variable)
                        || variable.equals("JAVA_TOOL_OPTIONS") || variable.startsWith("AWS_ENDPOINT_URL")
                        || READ_BY_LIBRARIES.containsKey(variable);
                assertThat(read).as(id + " sets " + variable + " but its code never reads it").isTrue();
            }
        }
    }

    @Test
    void everySdkCallTheCodeMakes_isAllowedOnTheResourceItReaches() throws IOException {
        for (String id : template.functionIds()) {
            List<Map<String, Object>> statements = statementsOf(roleOf(id));
            for (Need need : needs(id)) {
                for (String target : need.resources()) {
                    assertThat(statements).as(id + ": " + need.action() + " on " + target + " (for " + need.why() + ")")
                            .anyMatch(s -> allows(s, need.action(), target));
                }
            }
        }
    }

    @Test
    void everyActionARoleAllows_isNeededByItsFunctions() throws IOException {
        for (String id : template.functionIds()) {
            Set<String> needed = new TreeSet<>(LOG_ACTIONS);
            needs(id).forEach(n -> needed.add(n.action()));
            if (!sqsSourcesOf(id).isEmpty()) needed.addAll(POLL_ACTIONS);
            needed.addAll(DELIBERATE_EXTRAS.getOrDefault(moduleOf(id), Set.of()));
            for (Map<String, Object> statement : statementsOf(roleOf(id))) {
                assertThat(needed).as(id + ": role " + roleOf(id) + " statement " + statement.get("Sid")
                        + " allows more than the code calls").containsAll(actions(statement));
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void aggregator_mayPutObjectsOnlyUnderTheReportPrefixOfTheReportBucket() {
        List<Map<String, Object>> puts = statementsOf(roleOf("AggregatorFunction")).stream()
                .filter(s -> actions(s).contains("s3:PutObject")).toList();
        assertThat(puts).hasSize(1);
        List<Object> sub = (List<Object>) ((Map<String, Object>) puts.get(0).get("Resource")).get("Fn::Sub");
        assertThat(sub.get(0)).isEqualTo("arn:${AWS::Partition}:s3:::${Bucket}/${ReportPrefix}*");
        assertThat(referencedIds(sub.get(1))).containsExactlyInAnyOrder("ReportBucket", "DataBucket");
        // The variable names the bucket the statement is for: the same expression on both sides.
        assertThat(((Map<String, Object>) properties("AggregatorFunction").get("Environment")).toString())
                .contains("REPORT_BUCKET=" + ((Map<String, Object>) sub.get(1)).get("Bucket"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void aggregator_mayPutOnlyTheRunCompletedEventOnTheDefaultBus() {
        List<Map<String, Object>> puts = statementsOf(roleOf("AggregatorFunction")).stream()
                .filter(s -> actions(s).contains("events:PutEvents")).toList();
        assertThat(puts).hasSize(1);
        assertThat((Map<String, Object>) ((Map<String, Object>) puts.get(0).get("Condition")).get("StringEquals"))
                .containsEntry("events:source", "batchpipe").containsEntry("events:detail-type", "Run Completed");
    }

    @Test
    void noStatement_allowsEveryActionOrEveryResource() {
        for (String role : template.logicalIdsOfType("AWS::IAM::Role")) {
            for (Map<String, Object> statement : statementsOf(role)) {
                assertThat(actions(statement)).as(role + " actions").noneMatch(a -> a.contains("*"));
                if ("*".equals(statement.get("Resource"))) {
                    // Only actions that cannot be granted any narrower, alone in their statement.
                    assertThat(ONLY_ON_EVERY_RESOURCE).as(role + " " + statement.get("Sid") + " on \"*\": each action must be one"
                            + " that has no resource type").containsKeys(actions(statement).toArray(String[]::new));
                    continue;
                }
                assertThat(String.valueOf(statement.get("Resource"))).as(role + " resources").doesNotContain("\"*\"").isNotEqualTo("*");
                if (String.valueOf(statement.get("Resource")).endsWith(":event-bus/default}")) continue; // the account's bus, named exactly
                assertThat(referencedIds(statement.get("Resource"))).as(role + " " + statement.get("Sid") + " names a stack resource").isNotEmpty();
            }
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void tracing_isTheParameterForEveryFunction_andOnlyActiveTracingGrantsXRayWritesToEveryRole() throws IOException {
        assertThat(globals.get("Tracing")).isEqualTo(Map.of("Ref", "Tracing"));
        Map<String, Object> parameter = (Map<String, Object>) ((Map<String, Object>) CloudFormationYaml.load(template.file())
                .get("Parameters")).get("Tracing");
        assertThat(parameter).containsEntry("Default", "PassThrough").containsEntry("AllowedValues", List.of("Active", "PassThrough"));
        List<String> policies = template.logicalIdsOfType("AWS::IAM::Policy");
        assertThat(policies).containsExactly("TracingPolicy");
        assertThat(template.conditionOf("TracingPolicy")).isEqualTo("TracingIsActive");
        assertThat(template.isCreated("TracingPolicy")).as("with the default PassThrough").isFalse();
        Set<String> roles = new TreeSet<>();
        for (Object role : (List<Object>) template.properties("TracingPolicy").get("Roles")) roles.addAll(referencedIds(role));
        Set<String> functionRoles = new TreeSet<>();
        template.functionIds().forEach(id -> functionRoles.add(roleOf(id)));
        assertThat(roles).isEqualTo(functionRoles);
        List<Map<String, Object>> statements = (List<Map<String, Object>>) ((Map<String, Object>) template.properties("TracingPolicy")
                .get("PolicyDocument")).get("Statement");
        assertThat(statements).singleElement().satisfies(s -> {
            assertThat(s).containsEntry("Effect", "Allow").containsEntry("Resource", "*");
            assertThat(actions(s)).containsExactlyInAnyOrder("xray:PutTraceSegments", "xray:PutTelemetryRecords");
            assertThat(ONLY_ON_EVERY_RESOURCE).containsKeys(actions(s).toArray(String[]::new));
        });
    }

    @Test
    void everySqsSource_canBePolledAndHasADeadLetterQueue() {
        Map<String, QueueDefinition> queues = new HashMap<>();
        template.queues(resolver).forEach(q -> queues.put(q.logicalId(), q));
        int sources = 0;
        for (String id : template.functionIds()) {
            for (String queue : sqsSourcesOf(id)) {
                sources++;
                for (String action : POLL_ACTIONS) {
                    assertThat(statementsOf(roleOf(id))).as(id + ": " + action + " on " + queue).anyMatch(s -> allows(s, action, queue));
                }
                assertThat(queues.get(queue).deadLetterLogicalId()).as(queue + " dead-letter queue").isNotNull();
            }
        }
        assertThat(sources).isGreaterThanOrEqualTo(3); // worker, its twin, aggregator
    }

    /**
     * A scheduled run starts with an asynchronous invocation of the producer: one that fails is retried by
     * Lambda and then sent to an alarmed queue its role may send to (Lambda sends the destination's message
     * with the function's role), as a continuation that fails is redelivered and dead-lettered.
     */
    @Test
    @SuppressWarnings("unchecked")
    void producer_asynchronousInvocationsAreRetriedThenSentToAnAlarmedQueueItsRoleMaySendTo() {
        Map<String, Object> invokeConfig = (Map<String, Object>) properties("ProducerFunction").get("EventInvokeConfig");
        assertThat(invokeConfig).as("ProducerFunction EventInvokeConfig").isNotNull();
        assertThat(((Number) invokeConfig.get("MaximumRetryAttempts")).intValue()).isPositive();
        Map<String, Object> onFailure = (Map<String, Object>) ((Map<String, Object>) invokeConfig.get("DestinationConfig")).get("OnFailure");
        assertThat(onFailure).containsEntry("Type", "SQS");
        String queue = single(referencedIds(onFailure.get("Destination")));
        assertThat(template.logicalIdsOfType("AWS::SQS::Queue")).contains(queue);
        assertThat(statementsOf(roleOf("ProducerFunction"))).as("ProducerRole: sqs:SendMessage on " + queue)
                .anyMatch(st -> allows(st, "sqs:SendMessage", queue));
        assertThat(template.logicalIdsOfType("AWS::CloudWatch::Alarm")).as("an alarm on " + queue)
                .anyMatch(alarm -> referencedIds(template.properties(alarm).get("Dimensions")).contains(queue));
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFunction_logsToItsOwnGroupWithRetentionThatItsRoleMayWrite() {
        Set<String> groups = new LinkedHashSet<>();
        for (String id : template.functionIds()) {
            Map<String, Object> logging = (Map<String, Object>) properties(id).get("LoggingConfig");
            assertThat(logging).as(id + " LoggingConfig").isNotNull();
            String group = single(referencedIds(logging.get("LogGroup")));
            assertThat(groups.add(group)).as(id + " has a log group of its own").isTrue();
            assertThat(template.typeOf(group)).isEqualTo("AWS::Logs::LogGroup");
            assertThat(template.properties(group)).as(group).containsKey("RetentionInDays");
            for (String action : LOG_ACTIONS) {
                assertThat(statementsOf(roleOf(id))).as(id + ": " + action + " on " + group).anyMatch(s -> allows(s, action, group));
            }
        }
    }

    @Test
    void everyFunction_namesItsOwnServiceAndLogsAtTheLogLevelParameter() throws IOException {
        Map<String, String> services = new LinkedHashMap<>();
        for (String id : template.functionIds()) {
            Map<String, String> env = function(id).environment();
            assertThat(env.get("POWERTOOLS_SERVICE_NAME")).as(id + " POWERTOOLS_SERVICE_NAME").startsWith("batchpipe-");
            assertThat(env.get("POWERTOOLS_LOG_LEVEL")).as(id + " POWERTOOLS_LOG_LEVEL").isEqualTo("INFO");
            services.put(id, env.get("POWERTOOLS_SERVICE_NAME"));
        }
        // The twin is the worker on other hardware: same service, told apart by function_name.
        assertThat(services.get("WorkerTwinFunction")).isEqualTo(services.get("WorkerFunction"));
        services.remove("WorkerTwinFunction");
        assertThat(new java.util.HashSet<>(services.values())).as("one service name per function").hasSameSizeAs(services.values());
        StackTemplate debug = StackTemplate.load(home.resolve("template.yaml"), Map.of("LogLevel", "DEBUG"));
        assertThat(debug.function("AggregatorFunction", "s", resolverFor(debug)).environment()).containsEntry("POWERTOOLS_LOG_LEVEL", "DEBUG");
    }

    @Test
    @SuppressWarnings("unchecked")
    void everyFunction_isPublishedBehindAnAlias_snapStartedUnlessItSaysOtherwise_andChoosesItsJitTier() {
        // Where SnapStart cannot go (the aggregator's /tmp), DeployRulesTest holds the function to SnapStart's limits.
        assertThat((Map<String, Object>) globals.get("SnapStart")).containsEntry("ApplyOn", "PublishedVersions");
        assertThat(globals.get("AutoPublishAlias")).isEqualTo("live");
        for (String id : template.functionIds()) {
            // Lambda's Java 21 runtime stops at C1 unless JAVA_TOOL_OPTIONS says otherwise.
            assertThat(function(id).environment().get("JAVA_TOOL_OPTIONS")).as(id + " JAVA_TOOL_OPTIONS").matches(".*-XX:TieredStopAtLevel=[14]\\b.*");
        }
        assertThat(function("WorkerFunction").environment().get("JAVA_TOOL_OPTIONS")).contains("-XX:TieredStopAtLevel=4");
    }

    @Test
    @SuppressWarnings("unchecked")
    void workerTwin_isTheWorkerOnTheOtherArchitectureOnTheSameQueueWithTheSameSettings() throws IOException {
        Map<String, Object> twin = (Map<String, Object>) resources.get("WorkerTwinFunction");
        assertThat(twin.get("Condition")).isEqualTo("CompareArchitectures");
        for (String architecture : List.of("arm64", "x86_64")) {
            StackTemplate overridden = StackTemplate.load(home.resolve("template.yaml"), Map.of("Architecture", architecture));
            assertThat(overridden.function("WorkerTwinFunction", "batchpipe", resolverFor(overridden)).architectures())
                    .as("twin when Architecture=" + architecture).containsExactly(architecture.equals("arm64") ? "x86_64" : "arm64");
        }
        FunctionDefinition worker = function("WorkerFunction");
        FunctionDefinition copy = function("WorkerTwinFunction");
        assertThat(copy.handler()).isEqualTo(worker.handler());
        assertThat(copy.memoryMb()).isEqualTo(worker.memoryMb());
        assertThat(copy.timeoutSeconds()).isEqualTo(worker.timeoutSeconds());
        assertThat(copy.environment()).isEqualTo(worker.environment());
        assertThat(roleOf("WorkerTwinFunction")).isEqualTo(roleOf("WorkerFunction"));

        Map<String, Object> mapping = template.properties("WorkerTwinTasks");
        Map<String, Object> event = (Map<String, Object>) ((Map<String, Object>) ((Map<String, Object>) properties("WorkerFunction")
                .get("Events")).get("Tasks")).get("Properties");
        assertThat(((Map<String, Object>) resources.get("WorkerTwinTasks")).get("Condition")).isEqualTo("CompareArchitectures");
        for (String setting : List.of("BatchSize", "MaximumBatchingWindowInSeconds", "FunctionResponseTypes", "ScalingConfig")) {
            assertThat(mapping.get(setting)).as("WorkerTwinTasks " + setting).isEqualTo(event.get(setting));
        }
        assertThat(mapping.get("EventSourceArn")).isEqualTo(event.get("Queue"));
    }

    // ------------------------------------------------------------------ what the code needs

    private record Need(String action, List<String> resources, String why) {
    }

    /** Every SDK call in the function's code, as the IAM action and the stack resources it reaches. */
    private static List<Need> needs(String functionId) throws IOException {
        FunctionDefinition f = function(functionId);
        String table = logicalIdOf(f.environment().get("TABLE_NAME"));
        List<String> queues = f.environment().entrySet().stream().filter(e -> e.getKey().endsWith("_QUEUE_URL"))
                .map(e -> logicalIdOf(e.getValue())).toList();
        List<String> buckets = List.of("DataBucket", "ScanBucket");
        List<Need> needs = new ArrayList<>();
        for (String call : code(functionId).sdkCalls) {
            String client = call.substring(0, call.indexOf('.'));
            String operation = call.substring(call.indexOf('.') + 1);
            String pascal = operation.substring(0, 1).toUpperCase(Locale.ROOT) + operation.substring(1);
            switch (client) {
                case "dynamoDb" -> needs.add(new Need("dynamodb:" + pascal, List.of(table), call));
                case "sqs" -> needs.add(new Need(operation.startsWith("sendMessage") ? "sqs:SendMessage" : "sqs:" + pascal, queues, call));
                // The aggregator writes report files: to whichever bucket REPORT_BUCKET names.
                // A multipart upload's create, parts and completion are authorised as s3:PutObject; its abort has an action of its own.
                case "s3" -> {
                    String reportFileAction = switch (operation) {
                        case "putObject", "createMultipartUpload", "uploadPart", "completeMultipartUpload" -> "s3:PutObject";
                        case "abortMultipartUpload" -> "s3:AbortMultipartUpload";
                        default -> null;
                    };
                    needs.add(reportFileAction != null
                            ? new Need(reportFileAction, bucketsOf(f.environment().get("REPORT_BUCKET"), call), call)
                            : new Need(switch (operation) {
                                case "listObjectsV2", "listObjectsV2Paginator", "listObjects" -> "s3:ListBucket";
                                case "getObject", "getObjectAsBytes", "headObject" -> "s3:GetObject";
                                default -> "s3:" + pascal;
                            }, buckets, call));
                }
                case "logs" -> needs.add(switch (operation) {
                    // The log groups the aggregator queries are the ones its configuration names.
                    case "startQuery" -> new Need("logs:StartQuery", logGroupsOf(f), call);
                    case "getQueryResults" -> new Need("logs:GetQueryResults", List.of("*"), call);
                    default -> throw new IllegalStateException("no IAM mapping for " + call + ": add one here");
                });
                case "eventBridge" -> {
                    if (!operation.equals("putEvents")) throw new IllegalStateException("no IAM mapping for " + call + ": add one here");
                    needs.add(new Need("events:PutEvents", List.of(DEFAULT_EVENT_BUS), call));
                }
                default -> throw new IllegalStateException(call);
            }
        }
        return needs;
    }

    /** The bucket a bucket variable names with the template's defaults (the other branch: {@code aggregator_mayPutObjects...}). */
    private static List<String> bucketsOf(String resolved, String call) {
        assertThat(resolved).as(call + ": REPORT_BUCKET names the bucket it writes to").isNotNull();
        return List.of(logicalIdOf(resolved));
    }

    /** The log groups of WORKER_LOG_GROUPS, which the aggregator's Logs Insights queries name. */
    private static List<String> logGroupsOf(FunctionDefinition f) {
        String groups = f.environment().get("WORKER_LOG_GROUPS");
        assertThat(groups).as(f.logicalId() + " calls StartQuery: WORKER_LOG_GROUPS names the log groups").isNotNull();
        return java.util.Arrays.stream(groups.split(",")).map(TemplateWiringTest::logicalIdOf).toList();
    }

    private record Code(Set<String> sdkCalls, Set<String> requiredVariables, Set<String> optionalVariables) {
    }

    private static final Map<String, Code> CODE = new HashMap<>();

    /**
     * The function's code: its handler class and every class of its module and of common that it names
     * (and those name, and so on), priming left out. Two functions may share a module (the worker and the
     * dead-letter recorder): each is held to what its own handler reaches, not to its neighbour's calls.
     */
    private static Code code(String functionId) throws IOException {
        Code known = CODE.get(functionId);
        if (known != null) return known;
        String handlerClass = function(functionId).handlerClass();
        String handler = handlerClass.substring(handlerClass.lastIndexOf('.') + 1);
        Map<String, String> candidates = new LinkedHashMap<>(sources(home.resolve("common/src/main/java")));
        candidates.putAll(sources(home.resolve(moduleOf(functionId)).resolve("src/main/java")));
        assertThat(candidates).as(functionId + " handler source").containsKey(handler);
        List<String> texts = new ArrayList<>(List.of(candidates.get(handler)));
        Set<String> included = new LinkedHashSet<>(List.of(handler));
        for (boolean grew = true; grew; ) {
            grew = false;
            String all = String.join("\n", texts);
            for (Map.Entry<String, String> c : candidates.entrySet()) {
                if (!included.contains(c.getKey()) && Pattern.compile("\\b" + c.getKey() + "\\b").matcher(all).find()) {
                    included.add(c.getKey());
                    texts.add(c.getValue());
                    grew = true;
                }
            }
        }
        Set<String> calls = new TreeSet<>();
        Set<String> required = new TreeSet<>();
        Set<String> optional = new TreeSet<>();
        for (String text : texts) {
            collect(SDK_CALL.matcher(text), m -> m.group(1) + "." + m.group(2), calls);
            collect(REQUIRED_VARIABLE.matcher(text), m -> m.group(1), required);
            collect(OPTIONAL_VARIABLE.matcher(text), m -> m.group(1), optional);
        }
        Code code = new Code(calls, required, optional);
        CODE.put(functionId, code);
        return code;
    }

    private static void collect(Matcher m, java.util.function.Function<Matcher, String> value, Set<String> into) {
        while (m.find()) into.add(value.apply(m));
    }

    private static Map<String, String> sources(Path root) throws IOException {
        Map<String, String> byClass = new LinkedHashMap<>();
        try (Stream<Path> files = Files.walk(root)) {
            // Priming runs the same calls on canned clients that never reach AWS: not the code to authorise.
            for (Path file : files.filter(p -> p.toString().endsWith(".java") && !p.toString().contains("/priming/")).toList()) {
                String name = file.getFileName().toString();
                byClass.put(name.substring(0, name.length() - ".java".length()), Files.readString(file));
            }
        }
        return byClass;
    }

    // ------------------------------------------------------------------ reading the template

    private static FunctionDefinition function(String id) {
        return template.function(id, "batchpipe", resolver);
    }

    /** Every resource answers Ref with "ref:<LogicalId>", so resolved values name what they point at. */
    private static TemplateResolver resolverFor(StackTemplate t) {
        Map<String, TemplateResolver.Physical> physical = new HashMap<>();
        resources.keySet().forEach(id -> physical.put(id, new TemplateResolver.Physical("ref:" + id,
                Map.of("Arn", "arn:" + id, "QueueName", "name:" + id))));
        return t.resolver("batchpipe", "us-east-1", "123456789012", physical);
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> properties(String id) {
        return (Map<String, Object>) ((Map<String, Object>) resources.get(id)).get("Properties");
    }

    /** producer, worker or aggregator: the package of the handler. */
    private static String moduleOf(String functionId) {
        String handler = function(functionId).handlerClass();
        assertThat(handler).startsWith("batchpipe.");
        return handler.split("\\.")[1];
    }

    private static String roleOf(String functionId) {
        Object role = properties(functionId).get("Role");
        assertThat(role).as(functionId + " Role: !GetAtt <Role>.Arn").isNotNull();
        return single(referencedIds(role));
    }

    /** The queues whose event source mapping invokes the function: its SQS events and mapping resources naming it. */
    @SuppressWarnings("unchecked")
    private static List<String> sqsSourcesOf(String functionId) {
        List<String> queues = new ArrayList<>();
        function(functionId).sqsEvents().forEach(e -> queues.add(e.queueLogicalId()));
        for (String mapping : template.logicalIdsOfType("AWS::Lambda::EventSourceMapping")) {
            Map<String, Object> p = template.properties(mapping);
            if (referencedIds(p.get("FunctionName")).contains(functionId)) {
                queues.add(single(referencedIds(p.get("EventSourceArn"))));
            }
        }
        return queues;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statementsOf(String role) {
        List<Map<String, Object>> statements = new ArrayList<>();
        for (Object policy : (List<Object>) template.properties(role).get("Policies")) {
            Map<String, Object> document = (Map<String, Object>) ((Map<String, Object>) policy).get("PolicyDocument");
            statements.addAll((List<Map<String, Object>>) document.get("Statement"));
        }
        return statements;
    }

    private static boolean allows(Map<String, Object> statement, String action, String logicalId) {
        if (!"Allow".equals(statement.get("Effect")) || !actions(statement).contains(action)) return false;
        if (logicalId.equals("*")) return "*".equals(statement.get("Resource"));
        if (logicalId.equals(DEFAULT_EVENT_BUS)) return String.valueOf(statement.get("Resource")).endsWith(":event-bus/default}");
        return referencedIds(statement.get("Resource")).contains(logicalId);
    }

    @SuppressWarnings("unchecked")
    private static List<String> actions(Map<String, Object> statement) {
        Object action = statement.get("Action");
        return action instanceof List<?> list ? (List<String>) list : List.of(String.valueOf(action));
    }

    private static final Pattern SUB_NAME = Pattern.compile("\\$\\{([A-Za-z0-9]+)(?:\\.[A-Za-z]+)?}");

    /** The logical ids and parameters an expression refers to (Ref, GetAtt, ${X} in Sub, X.Alias). */
    @SuppressWarnings("unchecked")
    private static Set<String> referencedIds(Object expression) {
        Set<String> ids = new LinkedHashSet<>();
        if (expression instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (k.equals("Ref")) ids.add(String.valueOf(v).split("\\.")[0]);
                else if (k.equals("Fn::GetAtt")) ids.add(String.valueOf(((List<Object>) v).get(0)));
                else if (k.equals("Fn::Sub") && v instanceof String s) collectSub(s, ids);
                else if (k.equals("Fn::Sub") && v instanceof List<?> l) {
                    collectSub(String.valueOf(l.get(0)), ids);
                    ids.addAll(referencedIds(l.get(1)));
                } else ids.addAll(referencedIds(v));
            });
        } else if (expression instanceof List<?> list) {
            list.forEach(item -> ids.addAll(referencedIds(item)));
        }
        ids.removeIf(id -> id.startsWith("AWS::"));
        return ids;
    }

    private static void collectSub(String text, Set<String> ids) {
        Matcher m = SUB_NAME.matcher(text);
        while (m.find()) ids.add(m.group(1));
    }

    private static String logicalIdOf(String resolvedRef) {
        assertThat(resolvedRef).as("a !Ref to a stack resource").startsWith("ref:");
        return resolvedRef.substring("ref:".length());
    }

    private static String single(Set<String> ids) {
        assertThat(ids).hasSize(1);
        return ids.iterator().next();
    }
}
