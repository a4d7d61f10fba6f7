package batchpipe.common.task;

import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

/** The optional filter of a scan task: which events count as matches. Its JSON form is the task's and the run spec's {@code match}. */
public sealed interface ScanMatch extends JsonWritable {
    /** A literal substring of the raw line. */
    record Contains(String text) implements ScanMatch {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("contains", text);
        }
    }

    /** The field at a dotted path equals the value (a non-string scalar compares by its JSON text). */
    record FieldEquals(String field, String equals) implements ScanMatch {
        @Override
        public Object toJsonValue() {
            return new JsonFields().put("field", field).put("equals", equals);
        }
    }
}
