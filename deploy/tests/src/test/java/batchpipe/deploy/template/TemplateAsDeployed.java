package batchpipe.deploy.template;

import batchpipe.local.stack.ProjectHome;
import batchpipe.local.template.CloudFormationYaml;
import batchpipe.local.template.StackTemplate;
import batchpipe.local.template.TemplateResolver;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * template.yaml as CloudFormation deploys it: under any parameter values its constraints allow, with a
 * function's Globals merged the way SAM merges them, and references resolved to names shaped like
 * CloudFormation's (a bucket's name is a valid bucket name, a function's ARN a Lambda ARN), so that a
 * value built from them can be handed to the code that reads it on AWS.
 */
public final class TemplateAsDeployed {
    public static final String STACK = "batchpipe";
    public static final String REGION = "us-east-1";
    public static final String ACCOUNT = "123456789012";

    /**
     * Values to try for the parameters that take free text, beside their defaults: each must match the
     * parameter's AllowedPattern ({@link #valuesToTry} checks), and together they reach the pattern's edges
     * (the shortest and longest bucket names, every punctuation mark a prefix may hold).
     */
    private static final Map<String, List<String>> TEXT_EXAMPLES = Map.of(
            "ScanBucket", List.of("abc", "my-log-archive.2026", "a" + "b".repeat(61) + "c"),
            "SchedulePrefix", List.of("app/2026/", "!_.*'()/=-"),
            "ReportBucket", List.of("my-reports"),
            "ReportPrefix", List.of("", "runs/2026/"),
            "AlarmTopicArn", List.of("arn:aws:sns:us-east-1:123456789012:ops-alarms"),
            "AlarmEmail", List.of("ops@example.com"),
            "ScheduleExpression", List.of("cron(0 3 * * ? *)"));

    private final Path file;
    private final Map<String, Object> root;

    private TemplateAsDeployed(Path file, Map<String, Object> root) {
        this.file = file;
        this.root = root;
    }

    public static TemplateAsDeployed load() {
        Path file = ProjectHome.find().resolve("template.yaml");
        try {
            return new TemplateAsDeployed(file, CloudFormationYaml.load(file));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The template with these parameter values (the others at their defaults). */
    public StackTemplate with(Map<String, String> parameters) {
        try {
            return StackTemplate.load(file, parameters);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Resolves the template's expressions as CloudFormation would for a stack named {@link #STACK}. */
    public TemplateResolver resolver(StackTemplate template) {
        Map<String, TemplateResolver.Physical> physical = new LinkedHashMap<>();
        section(root, "Resources").forEach((id, resource) -> physical.put(id, physical(id, String.valueOf(section(resource).get("Type")))));
        return template.resolver(STACK, REGION, ACCOUNT, physical);
    }

    private static TemplateResolver.Physical physical(String id, String type) {
        String name = StackTemplate.physicalName(STACK, id, type);
        String arnPrefix = "arn:aws:";
        return switch (type) {
            case "AWS::SQS::Queue" -> new TemplateResolver.Physical("https://sqs." + REGION + ".amazonaws.com/" + ACCOUNT + "/" + name,
                    Map.of("Arn", arnPrefix + "sqs:" + REGION + ":" + ACCOUNT + ":" + name, "QueueName", name));
            case "AWS::S3::Bucket" -> new TemplateResolver.Physical(name, Map.of("Arn", arnPrefix + "s3:::" + name));
            case "AWS::DynamoDB::Table" -> new TemplateResolver.Physical(name,
                    Map.of("Arn", arnPrefix + "dynamodb:" + REGION + ":" + ACCOUNT + ":table/" + name));
            case "AWS::Serverless::Function" -> new TemplateResolver.Physical(name,
                    Map.of("Arn", arnPrefix + "lambda:" + REGION + ":" + ACCOUNT + ":function:" + name));
            case "AWS::Logs::LogGroup" -> new TemplateResolver.Physical(name,
                    Map.of("Arn", arnPrefix + "logs:" + REGION + ":" + ACCOUNT + ":log-group:" + name + ":*"));
            case "AWS::KMS::Key" -> new TemplateResolver.Physical("1234abcd-12ab-34cd-56ef-1234567890ab",
                    Map.of("Arn", arnPrefix + "kms:" + REGION + ":" + ACCOUNT + ":key/1234abcd-12ab-34cd-56ef-1234567890ab"));
            case "AWS::SNS::Topic" -> new TemplateResolver.Physical(arnPrefix + "sns:" + REGION + ":" + ACCOUNT + ":" + name,
                    Map.of("TopicName", name));
            default -> new TemplateResolver.Physical(name, Map.of("Arn", arnPrefix + "unknown:" + REGION + ":" + ACCOUNT + ":" + name));
        };
    }

    /**
     * The values worth trying for each parameter: its default, each allowed value, the ends of its range
     * (and 0 when the range holds it), and for free text the examples above. CloudFormation refuses any
     * other value at its bounds, so a rule that holds for these holds at every edge a user can reach.
     */
    public Map<String, List<String>> valuesToTry() {
        Map<String, List<String>> values = new LinkedHashMap<>();
        section(root, "Parameters").forEach((name, definition) -> {
            Map<String, Object> p = section(definition);
            Set<String> tried = new LinkedHashSet<>();
            if (p.get("Default") != null) tried.add(text(p.get("Default")));
            if (p.get("AllowedValues") instanceof List<?> allowed) allowed.forEach(v -> tried.add(text(v)));
            if (p.get("MinValue") != null) tried.add(text(p.get("MinValue")));
            if (p.get("MaxValue") != null) tried.add(text(p.get("MaxValue")));
            if (p.get("MinValue") != null && Double.parseDouble(text(p.get("MinValue"))) <= 0
                    && (p.get("MaxValue") == null || Double.parseDouble(text(p.get("MaxValue"))) >= 0)) tried.add("0");
            for (String example : TEXT_EXAMPLES.getOrDefault(name, List.of())) {
                if (p.get("AllowedPattern") != null && !example.matches(String.valueOf(p.get("AllowedPattern")))) {
                    throw new IllegalStateException("the example " + name + "='" + example + "' no longer matches its AllowedPattern: update "
                            + "TemplateAsDeployed.TEXT_EXAMPLES");
                }
                tried.add(example);
            }
            values.put(name, List.copyOf(tried));
        });
        return values;
    }

    /** The defaults, then every parameter in turn at each of its {@link #valuesToTry}, the others at their defaults. */
    public List<Map<String, String>> eachParameterAtEachBound() {
        List<Map<String, String>> sets = new ArrayList<>();
        sets.add(Map.of());
        valuesToTry().forEach((name, values) -> values.stream().skip(1).forEach(v -> sets.add(Map.of(name, v))));
        return sets;
    }

    /** Every combination of the {@link #valuesToTry} of these parameters (the others at their defaults). */
    public List<Map<String, String>> everyCombinationOf(Set<String> parameters) {
        List<Map<String, String>> sets = new ArrayList<>(List.of(Map.of()));
        Map<String, List<String>> values = valuesToTry();
        for (String parameter : parameters) {
            List<Map<String, String>> grown = new ArrayList<>();
            for (Map<String, String> set : sets) {
                for (String value : values.get(parameter)) {
                    Map<String, String> next = new LinkedHashMap<>(set);
                    next.put(parameter, value);
                    grown.add(next);
                }
            }
            sets = grown;
        }
        return sets;
    }

    /** The parameter's definition (Type, Default, MinValue, MaxValue, Description, ...). */
    public Map<String, Object> parameter(String name) {
        return section(section(root, "Parameters").get(name));
    }

    public boolean isParameter(String name) {
        return section(root, "Parameters").containsKey(name);
    }

    public Map<String, Object> resource(String logicalId) {
        return section(section(root, "Resources").get(logicalId));
    }

    public Map<String, Object> properties(String logicalId) {
        return section(resource(logicalId).get("Properties"));
    }

    /**
     * A function's properties as SAM deploys them: the Globals' Function section merged under the
     * function's own. SAM merges maps key by key, appends lists (the function's after the Globals'), and
     * lets the function's value win for anything else; an intrinsic function counts as a plain value.
     */
    public Map<String, Object> functionAsDeployed(String logicalId) {
        Map<String, Object> globals = section(section(root, "Globals").get("Function"));
        @SuppressWarnings("unchecked")
        Map<String, Object> merged = (Map<String, Object>) merge(globals, properties(logicalId));
        return merged;
    }

    /** Whether Lambda snapshots the function's published versions (SnapStart ApplyOn PublishedVersions), Globals merged. */
    public boolean snapStarted(String logicalId, TemplateResolver resolver) {
        Object snapStart = functionAsDeployed(logicalId).get("SnapStart");
        return snapStart != null && "PublishedVersions".equals(resolver.resolveString(section(snapStart).get("ApplyOn")));
    }

    private static Object merge(Object global, Object own) {
        if (global == null) return own;
        if (own == null) return global;
        if (global instanceof Map<?, ?> g && own instanceof Map<?, ?> o && !isIntrinsic(g) && !isIntrinsic(o)) {
            Map<String, Object> merged = new LinkedHashMap<>();
            g.forEach((k, v) -> merged.put(String.valueOf(k), v));
            o.forEach((k, v) -> merged.put(String.valueOf(k), merge(merged.get(String.valueOf(k)), v)));
            return merged;
        }
        if (global instanceof List<?> g && own instanceof List<?> o) {
            List<Object> merged = new ArrayList<>(g);
            merged.addAll(o);
            return merged;
        }
        return own;
    }

    private static boolean isIntrinsic(Map<?, ?> map) {
        if (map.size() != 1) return false;
        String key = String.valueOf(map.keySet().iterator().next());
        return key.equals("Ref") || key.equals("Condition") || key.startsWith("Fn::");
    }

    private static final Pattern SUB_NAME = Pattern.compile("\\$\\{([A-Za-z0-9]+)(?:\\.[A-Za-z]+)?}");

    /**
     * The logical ids and parameter names an expression refers to (Ref, GetAtt, ${X} in Sub, X.Alias), and
     * through the Conditions of its Fn::If, the parameters those conditions read.
     */
    public Set<String> referencedIds(Object expression) {
        Set<String> ids = new LinkedHashSet<>();
        collectReferences(expression, ids);
        ids.removeIf(id -> id.startsWith("AWS::"));
        return ids;
    }

    private void collectReferences(Object expression, Set<String> ids) {
        if (expression instanceof Map<?, ?> map) {
            map.forEach((k, v) -> {
                if (k.equals("Ref")) {
                    ids.add(String.valueOf(v).split("\\.")[0]);
                } else if (k.equals("Fn::GetAtt") && v instanceof List<?> l) {
                    ids.add(String.valueOf(l.get(0)));
                } else if (k.equals("Fn::Sub")) {
                    Object text = v instanceof List<?> l ? l.get(0) : v;
                    Matcher m = SUB_NAME.matcher(String.valueOf(text));
                    while (m.find()) ids.add(m.group(1));
                    if (v instanceof List<?> l && l.size() > 1) collectReferences(l.get(1), ids);
                } else if (k.equals("Fn::If") && v instanceof List<?> args && !args.isEmpty()) {
                    collectReferences(section(root, "Conditions").get(String.valueOf(args.get(0))), ids);
                    args.stream().skip(1).forEach(item -> collectReferences(item, ids));
                } else if (k.equals("Condition") && v instanceof String condition) {
                    collectReferences(section(root, "Conditions").get(condition), ids);
                } else {
                    collectReferences(v, ids);
                }
            });
        } else if (expression instanceof List<?> list) {
            list.forEach(item -> collectReferences(item, ids));
        }
    }

    /** Only the parameters among {@link #referencedIds}. */
    public Set<String> referencedParameters(Object expression) {
        Set<String> parameters = new LinkedHashSet<>(referencedIds(expression));
        parameters.removeIf(id -> !isParameter(id));
        return parameters;
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> section(Object value) {
        return value instanceof Map<?, ?> ? (Map<String, Object>) value : Map.of();
    }

    private static Map<String, Object> section(Map<String, Object> parent, String name) {
        return section(parent.get(name));
    }

    private static String text(Object value) {
        if (value instanceof Double d && d == Math.rint(d)) return Long.toString(d.longValue());
        return String.valueOf(value);
    }
}
