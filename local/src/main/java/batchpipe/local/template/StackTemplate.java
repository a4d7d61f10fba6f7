package batchpipe.local.template;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * template.yaml as the local stack needs it: the parameters (defaults plus overrides), the queues,
 * tables and buckets to create, and the functions with their resolved configuration. The local
 * stack creates exactly what the template declares; nothing is written a second time by hand.
 */
public final class StackTemplate {
    static final int DEFAULT_SQS_CONCURRENCY = 5;

    private final Path file;
    private final Map<String, Object> root;
    private final Map<String, String> parameters;

    private StackTemplate(Path file, Map<String, Object> root, Map<String, String> parameters) {
        this.file = file;
        this.root = root;
        this.parameters = parameters;
    }

    public static StackTemplate load(Path file, Map<String, String> parameterOverrides) throws IOException {
        Map<String, Object> root = CloudFormationYaml.load(file);
        Map<String, Object> declared = section(root, "Parameters");
        Map<String, String> parameters = new LinkedHashMap<>();
        declared.forEach((name, definition) -> {
            Object defaultValue = definition instanceof Map<?, ?> d ? d.get("Default") : null;
            if (defaultValue != null) parameters.put(name, scalarText(defaultValue));
        });
        for (Map.Entry<String, String> override : parameterOverrides.entrySet()) {
            if (!declared.containsKey(override.getKey())) {
                throw new IllegalArgumentException("parameter override '" + override.getKey() + "' is not a parameter of "
                        + file + " (parameters: " + String.join(", ", new TreeSet<>(declared.keySet())) + ")");
            }
            parameters.put(override.getKey(), override.getValue());
        }
        return new StackTemplate(file, root, parameters);
    }

    public Path file() {
        return file;
    }

    public Map<String, String> parameters() {
        return parameters;
    }

    public List<String> logicalIdsOfType(String type) {
        List<String> ids = new ArrayList<>();
        section(root, "Resources").forEach((id, resource) -> {
            if (resource instanceof Map<?, ?> r && type.equals(r.get("Type"))) ids.add(id);
        });
        return ids;
    }

    /**
     * The resources of {@code type} that CloudFormation would create with these parameters: those without
     * a Condition, or whose Condition holds (CompareArchitectures=false leaves out the worker's twin).
     */
    public List<String> createdLogicalIdsOfType(String type) {
        return logicalIdsOfType(type).stream().filter(this::isCreated).toList();
    }

    /** The functions CloudFormation would create with these parameters. */
    public List<String> createdFunctionIds() {
        return createdLogicalIdsOfType("AWS::Serverless::Function");
    }

    /** Whether the resource's Condition (if any) holds for these parameters. */
    public boolean isCreated(String logicalId) {
        String condition = conditionOf(logicalId);
        return condition == null || new TemplateResolver(parameters, Map.of(), Map.of(), section(root, "Conditions")).condition(condition);
    }

    /** The name of the resource's Condition, or null when it has none. */
    public String conditionOf(String logicalId) {
        Object resource = section(root, "Resources").get(logicalId);
        return resource instanceof Map<?, ?> r && r.get("Condition") != null ? String.valueOf(r.get("Condition")) : null;
    }

    @SuppressWarnings("unchecked")
    public Map<String, Object> properties(String logicalId) {
        Object resource = section(root, "Resources").get(logicalId);
        if (!(resource instanceof Map<?, ?> r)) {
            throw new IllegalArgumentException("no resource '" + logicalId + "' in " + file);
        }
        Object properties = r.get("Properties");
        return properties == null ? Map.of() : (Map<String, Object>) properties;
    }

    public String typeOf(String logicalId) {
        Object resource = section(root, "Resources").get(logicalId);
        return resource instanceof Map<?, ?> r ? String.valueOf(r.get("Type")) : null;
    }

    public TemplateResolver resolver(String stackName, String region, String accountId, Map<String, TemplateResolver.Physical> physical) {
        Map<String, String> pseudo = Map.of(
                "AWS::StackName", stackName,
                "AWS::Region", region,
                "AWS::AccountId", accountId,
                "AWS::Partition", "aws",
                "AWS::URLSuffix", "amazonaws.com");
        return new TemplateResolver(parameters, pseudo, physical, section(root, "Conditions"));
    }

    /** Local physical names: {@code <stack>-<LogicalId>}, lower case for buckets (S3's rule). */
    public static String physicalName(String stackName, String logicalId, String type) {
        String name = stackName + "-" + logicalId;
        return type.equals("AWS::S3::Bucket") ? name.toLowerCase(Locale.ROOT) : name;
    }

    public List<QueueDefinition> queues(TemplateResolver resolver) {
        List<QueueDefinition> queues = new ArrayList<>();
        for (String id : createdLogicalIdsOfType("AWS::SQS::Queue")) {
            Map<String, Object> p = properties(id);
            int visibility = p.containsKey("VisibilityTimeout") ? Integer.parseInt(resolver.resolveString(p.get("VisibilityTimeout"))) : 30;
            Integer retention = p.containsKey("MessageRetentionPeriod") ? Integer.valueOf(resolver.resolveString(p.get("MessageRetentionPeriod"))) : null;
            String deadLetter = null;
            int maxReceive = 0;
            if (p.get("RedrivePolicy") instanceof Map<?, ?> redrive) {
                deadLetter = referencedLogicalId(redrive.get("deadLetterTargetArn"));
                maxReceive = Integer.parseInt(resolver.resolveString(redrive.get("maxReceiveCount")));
            }
            queues.add(new QueueDefinition(id, visibility, retention, deadLetter, maxReceive));
        }
        return queues;
    }

    /** The logical id behind {@code !GetAtt X.Arn} or {@code !Ref X}. */
    static String referencedLogicalId(Object reference) {
        if (reference instanceof Map<?, ?> m) {
            if (m.get("Fn::GetAtt") instanceof List<?> l) return String.valueOf(l.get(0));
            if (m.get("Ref") != null) return String.valueOf(m.get("Ref"));
        }
        throw new IllegalArgumentException("expected !GetAtt Resource.Arn or !Ref Resource, got " + reference);
    }

    @SuppressWarnings("unchecked")
    public FunctionDefinition function(String logicalId, String stackName, TemplateResolver resolver) {
        if (!"AWS::Serverless::Function".equals(typeOf(logicalId))) {
            throw new IllegalArgumentException("unknown function '" + logicalId + "': template.yaml declares "
                    + String.join(", ", logicalIdsOfType("AWS::Serverless::Function")));
        }
        Map<String, Object> globals = section(section(root, "Globals"), "Function");
        Map<String, Object> merged = new LinkedHashMap<>(globals);
        Map<String, Object> own = properties(logicalId);
        merged.putAll(own);
        Map<String, Object> environment = new LinkedHashMap<>();
        environment.putAll(variables(globals));
        environment.putAll(variables(own));
        Map<String, String> resolvedEnv = new LinkedHashMap<>();
        ((Map<String, Object>) resolver.resolve(environment)).forEach((k, v) -> resolvedEnv.put(k, scalarText(v)));

        List<String> architectures = new ArrayList<>();
        Object arch = merged.get("Architectures");
        if (arch != null) ((List<Object>) resolver.resolve(arch)).forEach(a -> architectures.add(String.valueOf(a)));
        if (architectures.isEmpty()) architectures.add("x86_64");

        List<FunctionDefinition.SqsEventSource> sqs = new ArrayList<>();
        if (own.get("Events") instanceof Map<?, ?> events) {
            ((Map<String, Object>) events).forEach((name, e) -> {
                Map<String, Object> event = (Map<String, Object>) e;
                if (!"SQS".equals(event.get("Type"))) return;
                Map<String, Object> p = (Map<String, Object>) event.get("Properties");
                String queue = referencedLogicalId(p.get("Queue"));
                int batchSize = p.containsKey("BatchSize") ? Integer.parseInt(resolver.resolveString(p.get("BatchSize"))) : 10;
                int window = p.containsKey("MaximumBatchingWindowInSeconds")
                        ? Integer.parseInt(resolver.resolveString(p.get("MaximumBatchingWindowInSeconds"))) : 0;
                // Without ScalingConfig Lambda starts with five concurrent batches and scales up slowly;
                // locally five pollers stand for that start.
                int concurrency = DEFAULT_SQS_CONCURRENCY;
                if (p.get("ScalingConfig") instanceof Map<?, ?> scaling && scaling.get("MaximumConcurrency") != null) {
                    concurrency = Integer.parseInt(resolver.resolveString(scaling.get("MaximumConcurrency")));
                }
                Object types = p.get("FunctionResponseTypes");
                boolean partial = types instanceof List<?> l && l.contains("ReportBatchItemFailures");
                sqs.add(new FunctionDefinition.SqsEventSource(name, queue, batchSize, window, concurrency, partial));
            });
        }
        return new FunctionDefinition(logicalId, physicalName(stackName, logicalId, "AWS::Lambda::Function"),
                resolver.resolveString(merged.get("Handler")),
                resolver.resolveString(merged.getOrDefault("Runtime", "java21")),
                merged.containsKey("MemorySize") ? Integer.parseInt(resolver.resolveString(merged.get("MemorySize"))) : 128,
                merged.containsKey("Timeout") ? Integer.parseInt(resolver.resolveString(merged.get("Timeout"))) : 3,
                architectures, resolvedEnv, sqs);
    }

    public List<String> functionIds() {
        return logicalIdsOfType("AWS::Serverless::Function");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> variables(Map<String, Object> properties) {
        if (properties.get("Environment") instanceof Map<?, ?> env && env.get("Variables") instanceof Map<?, ?> vars) {
            return (Map<String, Object>) vars;
        }
        return Map.of();
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> section(Map<String, Object> parent, String name) {
        Object section = parent.get(name);
        return section instanceof Map<?, ?> ? (Map<String, Object>) section : Map.of();
    }

    static String scalarText(Object value) {
        if (value instanceof Double d && d == Math.rint(d)) return Long.toString(d.longValue());
        return String.valueOf(value);
    }
}
