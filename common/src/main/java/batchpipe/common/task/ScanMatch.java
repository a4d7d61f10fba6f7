package batchpipe.common.task;

/** The optional filter of a scan task: which events count as matches. */
public sealed interface ScanMatch {
    /** A literal substring of the raw line. */
    record Contains(String text) implements ScanMatch {
    }

    /** The field at a dotted path equals the value (a non-string scalar compares by its JSON text). */
    record FieldEquals(String field, String equals) implements ScanMatch {
    }
}
