package batchpipe.worker.scan;

import java.nio.charset.StandardCharsets;
import java.util.regex.Pattern;

/** Dotted field paths ({@code http.status}): validation and splitting into UTF-8 segments. */
final class FieldPath {

    static final int MAX_SEGMENTS = 32;
    private static final Pattern DOT = Pattern.compile(".", Pattern.LITERAL);

    private FieldPath() {
    }

    static void requireValid(String path, String argument) {
        if (path == null) {
            throw new IllegalArgumentException(argument + " must not be null");
        }
        if (path.isEmpty()) {
            throw new IllegalArgumentException(argument + " must not be empty");
        }
        if (path.startsWith(".") || path.endsWith(".") || path.contains("..")) {
            throw new IllegalArgumentException(
                    argument + " '" + path + "' has an empty segment; use dots only between field names");
        }
        int segments = DOT.split(path, -1).length;
        if (segments > MAX_SEGMENTS) {
            throw new IllegalArgumentException(
                    argument + " '" + path + "' has " + segments + " segments; the limit is " + MAX_SEGMENTS);
        }
    }

    static byte[][] segments(String path) {
        String[] parts = DOT.split(path, -1);
        byte[][] out = new byte[parts.length][];
        for (int i = 0; i < parts.length; i++) {
            out[i] = parts[i].getBytes(StandardCharsets.UTF_8);
        }
        return out;
    }
}
