package batchpipe.local.template;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Evaluates CloudFormation intrinsic functions against parameter values, pseudo parameters and the
 * local physical resources: Ref, Fn::GetAtt, Fn::Sub, Fn::If, Fn::Equals, Fn::Not, Fn::And, Fn::Or,
 * Fn::Join, Fn::Select, Condition. {@code AWS::NoValue} removes the property or list item it stands in.
 */
public final class TemplateResolver {
    /** Marks a value removed by AWS::NoValue. */
    static final Object NO_VALUE = new Object();
    private static final Pattern SUB_VARIABLE = Pattern.compile("\\$\\{([^}!][^}]*)}");

    /** What a deployed resource answers to Ref and Fn::GetAtt. */
    public record Physical(String ref, Map<String, String> attributes) {
    }

    private final Map<String, String> parameters;
    private final Map<String, String> pseudo;
    private final Map<String, Physical> resources;
    private final Map<String, Object> conditionDefinitions;
    private final Map<String, Boolean> conditions = new LinkedHashMap<>();

    public TemplateResolver(Map<String, String> parameters, Map<String, String> pseudo, Map<String, Physical> resources,
                            Map<String, Object> conditionDefinitions) {
        this.parameters = parameters;
        this.pseudo = pseudo;
        this.resources = resources;
        this.conditionDefinitions = conditionDefinitions == null ? Map.of() : conditionDefinitions;
    }

    public boolean condition(String name) {
        Boolean known = conditions.get(name);
        if (known != null) return known;
        Object definition = conditionDefinitions.get(name);
        if (definition == null) throw new IllegalArgumentException("template has no condition named " + name);
        boolean value = truth(resolve(definition));
        conditions.put(name, value);
        return value;
    }

    /** The value with every intrinsic function evaluated; NO_VALUE pieces removed. */
    @SuppressWarnings("unchecked")
    public Object resolve(Object value) {
        if (value instanceof Map<?, ?> map) {
            if (map.size() == 1) {
                Map.Entry<String, Object> only = ((Map<String, Object>) map).entrySet().iterator().next();
                String key = only.getKey();
                if (key.equals("Ref") || key.startsWith("Fn::") || key.equals("Condition") && only.getValue() instanceof String) {
                    return function(key, only.getValue());
                }
            }
            Map<String, Object> result = new LinkedHashMap<>();
            ((Map<String, Object>) map).forEach((k, v) -> {
                Object resolved = resolve(v);
                if (resolved != NO_VALUE) result.put(k, resolved);
            });
            return result;
        }
        if (value instanceof List<?> list) {
            List<Object> result = new ArrayList<>();
            for (Object item : list) {
                Object resolved = resolve(item);
                if (resolved != NO_VALUE) result.add(resolved);
            }
            return result;
        }
        return value;
    }

    /** Resolves and renders a scalar as CloudFormation would pass it to a property: text. */
    public String resolveString(Object value) {
        Object resolved = resolve(value);
        if (resolved == null || resolved == NO_VALUE) return null;
        if (resolved instanceof Map || resolved instanceof List) {
            throw new IllegalArgumentException("expected a scalar, got " + resolved);
        }
        if (resolved instanceof Double d && d == Math.rint(d)) return Long.toString(d.longValue());
        return resolved.toString();
    }

    private Object function(String name, Object argument) {
        return switch (name) {
            case "Ref" -> ref(String.valueOf(argument));
            case "Condition" -> condition(String.valueOf(argument));
            case "Fn::GetAtt" -> getAtt(argument);
            case "Fn::Sub" -> sub(argument);
            case "Fn::If" -> {
                List<?> args = list(name, argument, 3);
                yield condition(String.valueOf(args.get(0))) ? resolve(args.get(1)) : resolve(args.get(2));
            }
            case "Fn::Equals" -> {
                List<?> args = list(name, argument, 2);
                yield String.valueOf(scalar(resolve(args.get(0)))).equals(String.valueOf(scalar(resolve(args.get(1)))));
            }
            case "Fn::Not" -> !truth(resolve(list(name, argument, 1).get(0)));
            case "Fn::And" -> list(name, argument, -1).stream().allMatch(a -> truth(resolve(a)));
            case "Fn::Or" -> list(name, argument, -1).stream().anyMatch(a -> truth(resolve(a)));
            case "Fn::Join" -> {
                List<?> args = list(name, argument, 2);
                List<String> parts = new ArrayList<>();
                for (Object part : (List<?>) resolve(args.get(1))) parts.add(String.valueOf(scalar(part)));
                yield String.join(String.valueOf(args.get(0)), parts);
            }
            case "Fn::Select" -> {
                List<?> args = list(name, argument, 2);
                int index = Integer.parseInt(String.valueOf(scalar(resolve(args.get(0)))));
                yield ((List<?>) resolve(args.get(1))).get(index);
            }
            default -> throw new IllegalArgumentException("the local stack does not evaluate " + name
                    + "; keep template.yaml to Ref, GetAtt, Sub, If, Equals, Not, And, Or, Join, Select");
        };
    }

    private Object ref(String name) {
        if (name.equals("AWS::NoValue")) return NO_VALUE;
        if (pseudo.containsKey(name)) return pseudo.get(name);
        if (parameters.containsKey(name)) return parameters.get(name);
        Physical physical = resources.get(name);
        if (physical == null) {
            throw new IllegalArgumentException("!Ref " + name + ": no such parameter, or the resource is not created locally");
        }
        return physical.ref();
    }

    private Object getAtt(Object argument) {
        List<?> args = list("Fn::GetAtt", argument, 2);
        String resource = String.valueOf(args.get(0));
        String attribute = String.valueOf(resolve(args.get(1)));
        Physical physical = resources.get(resource);
        if (physical == null || !physical.attributes().containsKey(attribute)) {
            throw new IllegalArgumentException("!GetAtt " + resource + "." + attribute + " is not known locally");
        }
        return physical.attributes().get(attribute);
    }

    @SuppressWarnings("unchecked")
    private Object sub(Object argument) {
        String text;
        Map<String, Object> variables = Map.of();
        if (argument instanceof String s) {
            text = s;
        } else {
            List<?> args = list("Fn::Sub", argument, 2);
            text = String.valueOf(args.get(0));
            variables = (Map<String, Object>) args.get(1);
        }
        Matcher m = SUB_VARIABLE.matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String variable = m.group(1);
            Object value;
            if (variables.containsKey(variable)) {
                value = scalar(resolve(variables.get(variable)));
            } else if (variable.contains(".")) {
                int dot = variable.indexOf('.');
                value = getAtt(List.of(variable.substring(0, dot), variable.substring(dot + 1)));
            } else {
                value = ref(variable);
            }
            m.appendReplacement(out, Matcher.quoteReplacement(String.valueOf(value)));
        }
        m.appendTail(out);
        // ${!Literal} renders as ${Literal}
        return out.toString().replace("${!", "${");
    }

    private static Object scalar(Object value) {
        if (value instanceof Double d && d == Math.rint(d)) return d.longValue();
        return value;
    }

    private static boolean truth(Object value) {
        if (value instanceof Boolean b) return b;
        return Boolean.parseBoolean(String.valueOf(value));
    }

    private static List<?> list(String function, Object argument, int size) {
        if (!(argument instanceof List<?> list) || (size >= 0 && list.size() != size)) {
            throw new IllegalArgumentException(function + " expects a list" + (size >= 0 ? " of " + size : "") + ", got " + argument);
        }
        return list;
    }
}
