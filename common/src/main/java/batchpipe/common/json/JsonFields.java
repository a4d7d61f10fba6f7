package batchpipe.common.json;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A JSON object's fields in the order they are put, for records that write themselves as JSON
 * ({@link JsonWritable}): the order is the document's, so the same figures always give the same bytes.
 */
public final class JsonFields implements JsonWritable {
    // Written, never read back by name: values are whatever Json writes (scalars, lists, other JsonWritables).
    private final Map<String, Object> fields = new LinkedHashMap<>();

    public JsonFields put(String name, Object value) {
        fields.put(name, value);
        return this;
    }

    /** Puts the field only when {@code value} is not null: a field that is absent rather than null. */
    public JsonFields putPresent(String name, Object value) {
        if (value != null) fields.put(name, value);
        return this;
    }

    @Override
    public Object toJsonValue() {
        return fields;
    }
}
