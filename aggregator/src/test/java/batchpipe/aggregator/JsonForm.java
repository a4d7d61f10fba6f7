package batchpipe.aggregator;

import batchpipe.common.json.JsonWritable;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A typed report part as the JSON values report.json is written from, numbers in the Java types the
 * records hold (a Double stays a Double): for tests that state what report.json says, field by field.
 */
public final class JsonForm {
    private JsonForm() {
    }

    @SuppressWarnings("unchecked") // every JSON object of a record is written from a String-keyed map
    public static Map<String, Object> of(JsonWritable value) {
        return (Map<String, Object>) plain(value);
    }

    /** The object at {@code path} below {@code value}. */
    @SuppressWarnings("unchecked")
    public static Map<String, Object> at(Object value, String... path) {
        Object current = plain(value);
        for (String key : path) current = ((Map<String, Object>) current).get(key);
        return (Map<String, Object>) current;
    }

    public static Object plain(Object value) {
        while (value instanceof JsonWritable w) value = w.toJsonValue();
        if (value instanceof Map<?, ?> map) {
            Map<String, Object> copy = new LinkedHashMap<>();
            map.forEach((k, v) -> copy.put(String.valueOf(k), plain(v)));
            return copy;
        }
        if (value instanceof List<?> list) {
            List<Object> copy = new ArrayList<>();
            list.forEach(v -> copy.add(plain(v)));
            return copy;
        }
        return value;
    }
}
