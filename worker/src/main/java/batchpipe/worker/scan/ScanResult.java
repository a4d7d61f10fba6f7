package batchpipe.worker.scan;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * What one scan found.
 *
 * @param events          lines that are exactly one JSON object
 * @param malformed       non-blank lines that are not (oversized lines included)
 * @param malformedLines  the first {@link #MAX_MALFORMED_LINES} malformed line numbers, 1-based, ascending;
 *                        every line counts in the numbering, blank ones included
 * @param oversizedLines  lines longer than {@link ScanOptions#maxLineBytes()}
 * @param bytes           uncompressed bytes scanned
 * @param compressedBytes bytes read from the source
 * @param countBy         per requested path, value to count; both levels sorted
 * @param matches         events satisfying the requested match, null when none was requested
 */
public record ScanResult(long events, long malformed, List<Long> malformedLines, long oversizedLines, long bytes,
                         long compressedBytes, Map<String, Map<String, Long>> countBy, Long matches) {

    public static final int MAX_MALFORMED_LINES = 10;

    public ScanResult {
        malformedLines = List.copyOf(malformedLines);
        TreeMap<String, Map<String, Long>> sorted = new TreeMap<>();
        countBy.forEach((path, counts) -> sorted.put(path, Collections.unmodifiableMap(new TreeMap<>(counts))));
        countBy = Collections.unmodifiableMap(sorted);
    }

    /** This result as compact JSON, keys in declaration order, {@code matches} omitted when null. */
    public String toJson() {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"events\":").append(events)
                .append(",\"malformed\":").append(malformed)
                .append(",\"malformedLines\":[");
        for (int i = 0; i < malformedLines.size(); i++) {
            if (i > 0) {
                out.append(',');
            }
            out.append(malformedLines.get(i).longValue());
        }
        out.append("],\"oversizedLines\":").append(oversizedLines)
                .append(",\"bytes\":").append(bytes)
                .append(",\"compressedBytes\":").append(compressedBytes)
                .append(",\"countBy\":{");
        boolean firstPath = true;
        for (Map.Entry<String, Map<String, Long>> path : countBy.entrySet()) {
            if (!firstPath) {
                out.append(',');
            }
            firstPath = false;
            appendString(out, path.getKey());
            out.append(":{");
            boolean firstValue = true;
            for (Map.Entry<String, Long> value : path.getValue().entrySet()) {
                if (!firstValue) {
                    out.append(',');
                }
                firstValue = false;
                appendString(out, value.getKey());
                out.append(':').append(value.getValue().longValue());
            }
            out.append('}');
        }
        out.append('}');
        if (matches != null) {
            out.append(",\"matches\":").append(matches.longValue());
        }
        return out.append('}').toString();
    }

    private static final char[] HEX = "0123456789abcdef".toCharArray();

    /**
     * Quotes and escapes per RFC 8259: quote, backslash and control characters are escaped, and so are
     * unpaired surrogates, so that the text stays encodable as UTF-8.
     */
    static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        appendUnicodeEscape(out, c);
                    } else if (Character.isHighSurrogate(c) && i + 1 < s.length()
                            && Character.isLowSurrogate(s.charAt(i + 1))) {
                        out.append(c).append(s.charAt(++i));
                    } else if (Character.isSurrogate(c)) {
                        appendUnicodeEscape(out, c);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void appendUnicodeEscape(StringBuilder out, char c) {
        out.append("\\u").append(HEX[c >> 12]).append(HEX[(c >> 8) & 15]).append(HEX[(c >> 4) & 15])
                .append(HEX[c & 15]);
    }
}
