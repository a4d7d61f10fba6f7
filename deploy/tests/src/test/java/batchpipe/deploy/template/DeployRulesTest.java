package batchpipe.deploy.template;

import batchpipe.aggregator.AggregatorConfig;
import batchpipe.common.spec.InvalidRunSpecException;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;
import batchpipe.producer.ProducerConfig;
import batchpipe.worker.WorkerConfig;
import batchpipe.worker.deadletter.DeadLetterConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

import static batchpipe.deploy.template.TemplateAsDeployed.section;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

/**
 * The AWS rules that cfn-lint and the local stack do not check, read from template.yaml under every
 * parameter value its constraints let through at their edges. A template that breaks one of them passes
 * lint, runs locally, and then fails on AWS: the deploy is refused, or it succeeds and something never
 * happens (a mail, a scheduled run). Each rule names the AWS page it comes from; docs/DEPLOY.md ("First
 * deploy") lists the same rules for the person deploying.
 */
class DeployRulesTest {
    private static final String SNAPSTART_LIMITS = "https://docs.aws.amazon.com/lambda/latest/dg/snapstart.html"
            + " (Supported features and limitations)";
    private static final String SNS_KEYS = "https://docs.aws.amazon.com/sns/latest/dg/sns-key-management.html"
            + " (compatibility between event sources from AWS services and encrypted topics)";
    private static final String KMS_DEFAULT_POLICY = "https://docs.aws.amazon.com/kms/latest/developerguide/key-policy-default.html";
    private static final String SQS_VISIBILITY = "https://docs.aws.amazon.com/lambda/latest/dg/services-sqs-configure.html"
            + " (queue visibility timeout: at least six times the function timeout)";
    private static final String LAMBDA_RESOURCES = "https://docs.aws.amazon.com/lambda/latest/dg/lambda-api-permissions-ref.html"
            + " (functions: restricted by function, version or alias ARN)";
    /** Lambda's ephemeral storage without a setting, and the most SnapStart allows. */
    private static final int SNAPSTART_MAX_EPHEMERAL_MB = 512;
    /** What each function's code reads its environment with at init, as on Lambda. */
    private static final Map<String, Function<Map<String, String>, Object>> CONFIG_OF = Map.of(
            "ProducerFunction", ProducerConfig::from,
            "WorkerFunction", WorkerConfig::from,
            "WorkerTwinFunction", WorkerConfig::from,
            "DeadLetterRecorderFunction", DeadLetterConfig::from,
            "AggregatorFunction", AggregatorConfig::from);

    private static TemplateAsDeployed template;
    private static List<Map<String, String>> bounds;

    @BeforeAll
    static void load() {
        template = TemplateAsDeployed.load();
        bounds = template.eachParameterAtEachBound();
    }

    /**
     * SnapStart does not support provisioned concurrency, Amazon EFS or ephemeral storage above 512 MB, and
     * works only on published versions: a function that asks for both is refused when its version is
     * published, on the first deploy.
     */
    @Test
    void snapStartedFunctions_useNoFeatureSnapStartRefuses_andAreInvokedThroughAPublishedVersion() {
        Set<String> snapStarted = new LinkedHashSet<>();
        for (Map<String, String> parameters : bounds) {
            StackTemplate stack = template.with(parameters);
            TemplateResolver resolver = template.resolver(stack);
            for (String id : stack.createdFunctionIds()) {
                if (!template.snapStarted(id, resolver)) continue;
                snapStarted.add(id);
                Map<String, Object> function = template.functionAsDeployed(id);
                String where = id + " with " + parameters + ": SnapStart is on, and " + SNAPSTART_LIMITS + " says ";
                Object storage = section(function.get("EphemeralStorage")).get("Size");
                int storageMb = storage == null ? SNAPSTART_MAX_EPHEMERAL_MB : Integer.parseInt(resolver.resolveString(storage));
                assertThat(storageMb).as(where + "no ephemeral storage above 512 MB (EphemeralStorage.Size)")
                        .isLessThanOrEqualTo(SNAPSTART_MAX_EPHEMERAL_MB);
                assertThat(resolved(resolver, function.get("FileSystemConfigs"))).as(where + "no Amazon EFS (FileSystemConfigs)").isNull();
                assertThat(resolved(resolver, function.get("ProvisionedConcurrencyConfig")))
                        .as(where + "no provisioned concurrency (ProvisionedConcurrencyConfig)").isNull();
                assertThat(resolved(resolver, function.get("AutoPublishAlias")))
                        .as(where + "published versions only: AutoPublishAlias, so that SAM publishes one and points its event sources at it")
                        .isNotNull();
                for (String mapping : stack.createdLogicalIdsOfType("AWS::Lambda::EventSourceMapping")) {
                    Object target = template.properties(mapping).get("FunctionName");
                    if (!template.referencedIds(target).contains(id)) continue;
                    assertThat(String.valueOf(target)).as(mapping + " invokes " + id + ": " + SNAPSTART_LIMITS
                            + " says $LATEST is never restored from a snapshot; name its alias (!Ref " + id + ".Alias)").contains(id + ".Alias");
                }
            }
        }
        assertThat(snapStarted).as("functions checked with SnapStart on").isNotEmpty();
    }

    /**
     * A CloudWatch alarm publishes to an encrypted topic only if the topic's key lets cloudwatch.amazonaws.com
     * use it, and the AWS managed key alias/aws/sns cannot: its policy is AWS's, so the alarm's notifications
     * are dropped without an error anywhere a person looks. A key of this template must also keep the account
     * in its policy, or KMS refuses to create it (and nobody could manage it).
     */
    @Test
    void everyTopicAnAlarmNotifies_isEncryptedOnlyWithAKeyThatCloudWatchMayUse() {
        Set<String> topics = new LinkedHashSet<>();
        StackTemplate stack = template.with(Map.of());
        for (String alarm : stack.logicalIdsOfType("AWS::CloudWatch::Alarm")) {
            Map<String, Object> p = template.properties(alarm);
            for (String actions : List.of("AlarmActions", "OKActions", "InsufficientDataActions")) {
                template.referencedIds(p.get(actions)).stream().filter(id -> "AWS::SNS::Topic".equals(stack.typeOf(id))).forEach(topics::add);
            }
        }
        assertThat(topics).as("topics of this template that alarms notify").isNotEmpty();
        for (String topic : topics) {
            Object keyId = template.properties(topic).get("KmsMasterKeyId");
            if (keyId == null) continue; // SSE off: CloudWatch needs no key (docs/DEPLOY.md says why that is acceptable there)
            String where = topic + " (notified by alarms) is encrypted with " + keyId + "; " + SNS_KEYS + ": ";
            assertThat(keyId).as(where + "CloudWatch cannot use the AWS managed key alias/aws/sns; use a customer managed key of this template")
                    .isNotEqualTo("alias/aws/sns")
                    .isInstanceOf(Map.class); // a literal key id or alias names a key whose policy this test cannot read
            List<String> keys = template.referencedIds(keyId).stream().filter(id -> "AWS::KMS::Key".equals(stack.typeOf(id))).toList();
            assertThat(keys).as(where + "a key of this template").hasSize(1);
            String key = keys.get(0);
            Object keyCondition = template.resource(key).get("Condition");
            assertThat(keyCondition == null || keyCondition.equals(template.resource(topic).get("Condition")))
                    .as(key + " exists whenever " + topic + " does (its Condition is none or the topic's)").isTrue();
            List<Map<String, Object>> statements = statements(template.properties(key).get("KeyPolicy"));
            assertThat(statements).as(key + " KeyPolicy: " + SNS_KEYS + " asks for kms:Decrypt and kms:GenerateDataKey* for the publishing"
                    + " service's principal, cloudwatch.amazonaws.com")
                    .anyMatch(s -> allows(s, "kms:Decrypt") && allows(s, "kms:GenerateDataKey") && servicePrincipals(s).contains("cloudwatch.amazonaws.com"));
            assertThat(statements).as(key + " KeyPolicy keeps the account's root with kms:*, as " + KMS_DEFAULT_POLICY + " does; without it KMS"
                    + " refuses the policy (it would lock out the caller)")
                    .anyMatch(s -> allows(s, "kms:PutKeyPolicy") && String.valueOf(section(s.get("Principal")).get("AWS")).contains(":root"));
        }
    }

    /**
     * Lambda's poller keeps a batch's messages invisible while the function runs, and retries a throttled
     * batch: a visibility timeout under six function timeouts hands a running task to a second worker.
     * CloudFormation has no arithmetic to tie a visibility parameter to a timeout parameter, so where both
     * are parameters the rule is that every allowed timeout has an allowed visibility that keeps it, the
     * defaults keep it, and the timeout's description tells the user which parameter to raise; where one
     * side is fixed, the rule holds for every allowed value of the other.
     */
    @Test
    void everySqsSource_hasAVisibilityTimeoutOfSixConsumerTimeouts_forEveryTimeoutItsParametersAllow() {
        StackTemplate defaults = template.with(Map.of());
        TemplateResolver resolver = template.resolver(defaults);
        Map<String, List<String>> values = template.valuesToTry();
        int sources = 0;
        for (String[] source : sqsSources(defaults)) {
            sources++;
            String queue = source[0];
            String function = source[1];
            Object visibility = template.properties(queue).getOrDefault("VisibilityTimeout", 30);
            Object timeout = template.functionAsDeployed(function).getOrDefault("Timeout", 3);
            String rule = queue + " feeds " + function + ": " + SQS_VISIBILITY;
            assertThat(seconds(resolver, visibility)).as(rule + ", with the defaults").isGreaterThanOrEqualTo(6 * seconds(resolver, timeout));
            Set<String> visibilityParameters = template.referencedParameters(visibility);
            Set<String> timeoutParameters = template.referencedParameters(timeout);
            if (!visibilityParameters.isEmpty() && !timeoutParameters.isEmpty()) {
                String visibilityParameter = single(visibilityParameters);
                String timeoutParameter = single(timeoutParameters);
                long highestVisibility = Long.parseLong(String.valueOf(template.parameter(visibilityParameter).get("MaxValue")));
                for (String t : values.get(timeoutParameter)) {
                    assertThat(highestVisibility).as(rule + ": " + timeoutParameter + "=" + t + " needs " + visibilityParameter + " >= " + 6 * Long.parseLong(t)
                            + ", which its MaxValue must allow").isGreaterThanOrEqualTo(6 * Long.parseLong(t));
                }
                assertThat(String.valueOf(template.parameter(timeoutParameter).get("Description")))
                        .as(timeoutParameter + "'s description tells the user to raise " + visibilityParameter + " with it (six times)")
                        .contains(visibilityParameter).containsIgnoringCase("six times");
                continue;
            }
            Set<String> free = new LinkedHashSet<>(visibilityParameters);
            free.addAll(timeoutParameters);
            for (Map<String, String> parameters : template.everyCombinationOf(free)) {
                TemplateResolver r = template.resolver(template.with(parameters));
                assertThat(seconds(r, visibility)).as(rule + ", with " + parameters).isGreaterThanOrEqualTo(6 * seconds(r, timeout));
            }
        }
        assertThat(sources).as("SQS sources: tasks (worker and twin), planning, completions, dead letters").isGreaterThanOrEqualTo(5);
    }

    /**
     * The schedule invokes the producer with a run spec that CloudFormation builds from parameters. If some
     * allowed value builds a spec the producer refuses, every scheduled run of that stack ends in the planning
     * dead-letter queue; so the spec, built as CloudFormation would, must pass the producer's own parser with the
     * producer's own limits, for every combination of the values at the edges of the parameters it is built from.
     */
    @Test
    void schedule_sendsARunSpecTheProducerAccepts_forEveryCombinationOfTheParametersItIsBuiltFrom() {
        Map<String, Object> schedule = scheduleEventOfTheProducer();
        Object input = section(schedule.get("Properties")).get("Input");
        Set<String> parameters = new LinkedHashSet<>(template.referencedParameters(input));
        Object hashLimit = section(section(template.functionAsDeployed("ProducerFunction").get("Environment")).get("Variables")).get("MAX_HASH_COST");
        parameters.addAll(template.referencedParameters(hashLimit));
        assertThat(parameters).as("the parameters the schedule's spec and the producer's limits come from")
                .contains("ScheduleHashBatches", "SchedulePrefix", "ScanBucket", "MaxHashCost");

        List<Map<String, String>> combinations = template.everyCombinationOf(parameters);
        Map<String, String> refused = new LinkedHashMap<>(); // one example of the parameters for each reason the producer gives
        for (Map<String, String> values : combinations) {
            StackTemplate stack = template.with(values);
            TemplateResolver resolver = template.resolver(stack);
            String json = resolver.resolveString(input);
            ProducerConfig config = ProducerConfig.from(stack.function("ProducerFunction", TemplateAsDeployed.STACK, resolver).environment());
            RunSpec spec;
            try {
                spec = new RunSpecParser(config.limits()).parse(json);
            } catch (InvalidRunSpecException e) {
                refused.putIfAbsent(e.problems().toString(), values + " sends " + json);
                continue;
            }
            int batches = Integer.parseInt(stack.parameters().get("ScheduleHashBatches"));
            if (batches == 0) {
                assertThat(spec.hash()).as("ScheduleHashBatches=0 means a scan without a hash part: " + json).isNull();
            } else {
                assertThat(spec.hash()).as("the hash part of " + json).isNotNull();
                assertThat(spec.hash().batches()).as("the batches of " + json).isEqualTo(batches);
            }
            assertThat(spec.scan()).as("the scan part of " + json).singleElement()
                    .satisfies(s -> assertThat(s.prefix()).isEqualTo(stack.parameters().get("SchedulePrefix")));
        }
        assertThat(refused).as("what the producer refuses of the schedule's spec (reason = one case) over " + combinations.size() + " combinations")
                .isEmpty();
    }

    /**
     * Every function reads its variables at init and refuses a value out of its range there, so a parameter
     * whose allowed range is wider than the code's fails every invocation (a SnapStart version fails to
     * publish). Each function's configuration is read from its environment as the template sets it, as Lambda
     * sets its own variables, with each parameter at each of its edges.
     */
    @Test
    void everyFunction_readsItsConfiguration_withEveryParameterAtEachOfItsBounds() {
        Set<String> read = new LinkedHashSet<>();
        for (Map<String, String> parameters : bounds) {
            StackTemplate stack = template.with(parameters);
            TemplateResolver resolver = template.resolver(stack);
            for (String id : stack.createdFunctionIds()) {
                assertThat(CONFIG_OF).as("how " + id + " reads its configuration: add it to CONFIG_OF").containsKey(id);
                var function = stack.function(id, TemplateAsDeployed.STACK, resolver);
                Map<String, String> env = new LinkedHashMap<>(function.environment());
                env.put("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", Integer.toString(function.memoryMb()));
                env.put("AWS_LAMBDA_FUNCTION_NAME", function.functionName());
                env.put("AWS_LAMBDA_FUNCTION_VERSION", "1");
                env.put("AWS_REGION", TemplateAsDeployed.REGION);
                try {
                    CONFIG_OF.get(id).apply(env);
                } catch (RuntimeException e) {
                    fail(id + " cannot start with " + parameters + ": " + e.getMessage(), e);
                }
                read.add(id);
            }
        }
        assertThat(read).containsAll(template.with(Map.of()).createdFunctionIds()).contains("WorkerTwinFunction");
    }

    /**
     * DeleteFunction on a function's unqualified ARN deletes the function with every version and alias; on a
     * qualified ARN (name:version) only that version. A policy that only has to clean up versions (the sweep's)
     * must name qualified ARNs only, so that it cannot take the worker away from its queue.
     */
    @Test
    void everyPolicy_deletesLambdaFunctionsOnlyByVersion_neverAWholeFunction() {
        List<Map<String, String>> sets = new ArrayList<>(bounds);
        sets.add(Map.of("SweepPolicy", "true", "CompareArchitectures", "true"));
        int deleting = 0;
        for (Map<String, String> parameters : sets) {
            StackTemplate stack = template.with(parameters);
            TemplateResolver resolver = template.resolver(stack);
            for (Map.Entry<String, Map<String, Object>> entry : policyStatements(stack).entrySet()) {
                Map<String, Object> statement = entry.getValue();
                if (!"Allow".equals(statement.get("Effect")) || !allows(statement, "lambda:DeleteFunction")) continue;
                deleting++;
                Object resources = resolver.resolve(statement.get("Resource"));
                List<?> list = resources instanceof List<?> l ? l : List.of(resources);
                for (Object resource : list) {
                    assertThat(String.valueOf(resource)).as(entry.getKey() + " allows lambda:DeleteFunction on " + resource + " (with " + parameters
                                    + "): an unqualified ARN deletes the whole function; " + LAMBDA_RESOURCES)
                            .matches("arn:aws:lambda:[a-z0-9-]+:\\d{12}:function:[A-Za-z0-9_-]+:[^:]+");
                }
            }
        }
        assertThat(deleting).as("statements allowing lambda:DeleteFunction (the sweep's, with SweepPolicy=true)").isPositive();
    }

    // ------------------------------------------------------------------ reading the template

    @SuppressWarnings("unchecked")
    private static Map<String, Object> scheduleEventOfTheProducer() {
        Map<String, Object> events = section(template.properties("ProducerFunction").get("Events"));
        List<Map<String, Object>> schedules = events.values().stream().map(e -> (Map<String, Object>) e)
                .filter(e -> String.valueOf(e.get("Type")).startsWith("Schedule")).toList();
        assertThat(schedules).as("ProducerFunction's schedule event").hasSize(1);
        return schedules.get(0);
    }

    /** Each SQS source as {queue, function}: the functions' SQS events and the event source mapping resources. */
    private static List<String[]> sqsSources(StackTemplate stack) {
        List<String[]> sources = new ArrayList<>();
        for (String id : stack.functionIds()) {
            section(template.properties(id).get("Events")).values().forEach(e -> {
                if ("SQS".equals(section(e).get("Type"))) {
                    sources.add(new String[] {single(template.referencedIds(section(section(e).get("Properties")).get("Queue"))), id});
                }
            });
        }
        for (String mapping : stack.logicalIdsOfType("AWS::Lambda::EventSourceMapping")) {
            Map<String, Object> p = template.properties(mapping);
            sources.add(new String[] {single(template.referencedIds(p.get("EventSourceArn"))), single(template.referencedIds(p.get("FunctionName")))});
        }
        return sources;
    }

    /** Every statement of the template's IAM policies (roles' inline policies, policies, managed policies), by where it is. */
    private static Map<String, Map<String, Object>> policyStatements(StackTemplate stack) {
        Map<String, Map<String, Object>> statements = new LinkedHashMap<>();
        for (String type : List.of("AWS::IAM::Role", "AWS::IAM::Policy", "AWS::IAM::ManagedPolicy")) {
            for (String id : stack.logicalIdsOfType(type)) {
                Map<String, Object> p = template.properties(id);
                List<Object> documents = new ArrayList<>();
                if (p.get("PolicyDocument") != null) documents.add(p.get("PolicyDocument"));
                if (p.get("Policies") instanceof List<?> policies) policies.forEach(policy -> documents.add(section(policy).get("PolicyDocument")));
                int n = 0;
                for (Object document : documents) {
                    for (Map<String, Object> statement : statements(document)) {
                        statements.put(id + " statement " + (statement.get("Sid") != null ? statement.get("Sid") : "#" + n), statement);
                        n++;
                    }
                }
            }
        }
        return statements;
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> statements(Object policyDocument) {
        Object statement = section(policyDocument).get("Statement");
        if (statement instanceof List<?> list) return (List<Map<String, Object>>) list;
        return statement == null ? List.of() : List.of((Map<String, Object>) statement);
    }

    /** Whether the statement's Action covers the action, IAM wildcards included (kms:GenerateDataKey* covers kms:GenerateDataKey). */
    private static boolean allows(Map<String, Object> statement, String action) {
        Object actions = statement.get("Action");
        List<?> list = actions instanceof List<?> l ? l : List.of(String.valueOf(actions));
        return list.stream().map(String::valueOf).anyMatch(pattern -> action.toLowerCase().matches(
                pattern.toLowerCase().replace(".", "\\.").replace("?", ".").replace("*", ".*")));
    }

    private static List<String> servicePrincipals(Map<String, Object> statement) {
        Object service = section(statement.get("Principal")).get("Service");
        if (service instanceof List<?> list) return list.stream().map(String::valueOf).toList();
        return service == null ? List.of() : List.of(String.valueOf(service));
    }

    /** The property's resolved value, or null when it is absent or resolves to AWS::NoValue (no property at all). */
    private static Object resolved(TemplateResolver resolver, Object value) {
        if (value == null) return null;
        return section(resolver.resolve(Map.of("property", value))).get("property");
    }

    private static long seconds(TemplateResolver resolver, Object value) {
        return Long.parseLong(resolver.resolveString(value));
    }

    private static String single(Set<String> ids) {
        assertThat(ids).hasSize(1);
        return ids.iterator().next();
    }
}
