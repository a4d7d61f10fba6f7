package batchpipe.common.json;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Reads typed fields out of a parsed JSON object and collects every problem instead of stopping at
 * the first, so a user fixing a spec or a message sees all of them at once. Each problem names the
 * field by its path (e.g. {@code scan[1].maxObjects}) and the rule it broke.
 */
public final class FieldReader {
    private final Map<String, Object> object;
    private final String path;
    private final List<String> problems;

    public FieldReader(Map<String, Object> object, String path, List<String> problems) {
        this.object = object;
        this.path = path;
        this.problems = problems;
    }

    public static FieldReader root(Map<String, Object> object) {
        return new FieldReader(object, "", new ArrayList<>());
    }

    public List<String> problems() {
        return problems;
    }

    public String pathOf(String field) {
        return path.isEmpty() ? field : path + "." + field;
    }

    public void problem(String message) {
        problems.add(message);
    }

    public boolean has(String field) {
        return object.containsKey(field) && object.get(field) != null;
    }

    public Object raw(String field) {
        return object.get(field);
    }

    /** Reports every field not in {@code allowed}: a typo must not silently become a default. */
    public void rejectUnknown(Set<String> allowed) {
        for (String key : object.keySet()) {
            if (!allowed.contains(key)) {
                problems.add("unknown field '" + pathOf(key) + "' (allowed: " + String.join(", ", sorted(allowed)) + ")");
            }
        }
    }

    public String requiredString(String field, int maxLength) {
        if (!has(field)) {
            problems.add("'" + pathOf(field) + "' is required");
            return null;
        }
        return string(field, maxLength);
    }

    public String optionalString(String field, int maxLength) {
        return has(field) ? string(field, maxLength) : null;
    }

    private String string(String field, int maxLength) {
        Object value = object.get(field);
        if (!(value instanceof String s)) {
            problems.add("'" + pathOf(field) + "' must be a string, got " + Json.typeName(value));
            return null;
        }
        if (s.isEmpty()) {
            problems.add("'" + pathOf(field) + "' must not be empty");
            return null;
        }
        if (s.length() > maxLength) {
            problems.add("'" + pathOf(field) + "' is " + s.length() + " characters, over the limit of " + maxLength);
            return null;
        }
        return s;
    }

    /** An integer in [min, max]; {@code limitName} says where the bound comes from when it is configurable. */
    public Long requiredLong(String field, long min, long max, String limitName) {
        if (!has(field)) {
            problems.add("'" + pathOf(field) + "' is required");
            return null;
        }
        return longValue(field, min, max, limitName);
    }

    public Long optionalLong(String field, long min, long max, String limitName) {
        return has(field) ? longValue(field, min, max, limitName) : null;
    }

    private Long longValue(String field, long min, long max, String limitName) {
        Object value = object.get(field);
        if (!(value instanceof Long n)) {
            problems.add("'" + pathOf(field) + "' must be a whole number, got " + describe(value));
            return null;
        }
        if (n < min || n > max) {
            problems.add("'" + pathOf(field) + "' is " + n + ", outside the allowed range " + min + " to " + max
                    + (limitName == null ? "" : " (" + limitName + ")"));
            return null;
        }
        return n;
    }

    @SuppressWarnings("unchecked")
    public FieldReader optionalObject(String field) {
        if (!has(field)) return null;
        Object value = object.get(field);
        if (!(value instanceof Map)) {
            problems.add("'" + pathOf(field) + "' must be an object, got " + Json.typeName(value));
            return null;
        }
        return new FieldReader((Map<String, Object>) value, pathOf(field), problems);
    }

    public List<?> optionalList(String field, int maxSize) {
        if (!has(field)) return null;
        Object value = object.get(field);
        if (!(value instanceof List<?> list)) {
            problems.add("'" + pathOf(field) + "' must be an array, got " + Json.typeName(value));
            return null;
        }
        if (list.size() > maxSize) {
            problems.add("'" + pathOf(field) + "' has " + list.size() + " entries, over the limit of " + maxSize);
            return null;
        }
        return list;
    }

    /** A list of non-empty strings, each at most {@code maxLength} characters. */
    public List<String> optionalStringList(String field, int maxSize, int maxLength) {
        List<?> list = optionalList(field, maxSize);
        if (list == null) return null;
        List<String> result = new ArrayList<>(list.size());
        for (int i = 0; i < list.size(); i++) {
            Object item = list.get(i);
            String at = pathOf(field) + "[" + i + "]";
            if (!(item instanceof String s) || s.isEmpty()) {
                problems.add("'" + at + "' must be a non-empty string");
                return null;
            }
            if (s.length() > maxLength) {
                problems.add("'" + at + "' is " + s.length() + " characters, over the limit of " + maxLength);
                return null;
            }
            result.add(s);
        }
        return result;
    }

    private static String describe(Object value) {
        return value instanceof Number ? "the number " + value : Json.typeName(value);
    }

    private static List<String> sorted(Set<String> names) {
        return names.stream().sorted().toList();
    }
}
