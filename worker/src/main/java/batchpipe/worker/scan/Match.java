package batchpipe.worker.scan;

import java.util.Objects;

/**
 * What a scan counts in {@link ScanResult#matches()}. Only events (valid lines) can match.
 */
public sealed interface Match permits Match.Contains, Match.FieldEquals {

    /** The raw line bytes (UTF-8, line terminator excluded) contain {@code text} literally. */
    record Contains(String text) implements Match {
        public Contains {
            Objects.requireNonNull(text, "text");
            if (text.isEmpty()) {
                throw new IllegalArgumentException("Match.Contains text must not be empty");
            }
        }
    }

    /**
     * The field at the dotted {@code path} equals {@code value}: a string field compares its unescaped
     * content with the value; any other scalar compares its JSON text as written ({@code 200},
     * {@code 1.50}, {@code true}, {@code null}). Objects, arrays and missing fields never match.
     */
    record FieldEquals(String path, String value) implements Match {
        public FieldEquals {
            FieldPath.requireValid(path, "Match.FieldEquals path");
            Objects.requireNonNull(value, "value");
        }
    }
}
