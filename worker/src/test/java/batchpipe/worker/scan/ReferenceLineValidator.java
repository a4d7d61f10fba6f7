package batchpipe.worker.scan;

/**
 * <b>Reference for the differential tests</b>: the scanner's code as it was before issue 19 (commit
 * b2163fc), kept unchanged apart from its name, so that ScanDifferentialTest can hold the fast path to
 * exactly its answers on every line.
 *
 * <p>Strict RFC 8259 check that a byte range is exactly one JSON object, in valid UTF-8, nested at most
 * {@link #MAX_DEPTH} levels. jsoniter checks almost none of this (its skip counts braces, skips three
 * bytes for any literal starting with {@code t} or {@code n}, and accepts any byte inside strings and
 * numbers), so every line is validated here first and jsoniter only navigates lines known to be valid.
 *
 * <p>The check is iterative with an explicit container stack, so no input can overflow the thread stack.
 * Plain string bytes are skipped through a 256-entry table; an eight-bytes-at-a-time (SWAR) variant
 * measured no faster on log lines, whose strings are short, and its VarHandle reads are slow until C2
 * has compiled them, which hurts a fresh JVM's first scan. One instance per thread; not thread-safe.
 */
final class ReferenceLineValidator {

    /** The root object is depth 1; a line nested deeper than this is malformed. */
    static final int MAX_DEPTH = 512;

    /** 1 for bytes that stand for themselves inside a string: printable ASCII but quote and backslash. */
    private static final byte[] PLAIN_IN_STRING = new byte[256];

    static {
        for (int c = 0x20; c < 0x80; c++) {
            PLAIN_IN_STRING[c] = 1;
        }
        PLAIN_IN_STRING['"'] = 0;
        PLAIN_IN_STRING['\\'] = 0;
    }

    /** For each open container: true when it is an array, false when an object. */
    private final boolean[] inArray = new boolean[MAX_DEPTH + 1];

    /** {@link #scanLine} outcome: the line holds only whitespace. */
    static final int BLANK = 0;
    /** {@link #scanLine} outcome: the line is exactly one JSON object. */
    static final int OBJECT = 1;
    /** {@link #scanLine} outcome: anything else. */
    static final int MALFORMED = 2;

    /** After {@link #scanLine}: for BLANK and OBJECT, the index of the line's newline (or its end). */
    int lineEnd;
    /** After {@link #scanLine} returned OBJECT: the index of its opening brace. */
    int objectStart;
    /** After {@link #scanLine} returned OBJECT: whether any string in it holds a backslash escape. */
    boolean sawEscape;

    /**
     * Checks the line starting at {@code start}: it ends at the first {@code \n} or at {@code end}, so
     * one pass both finds the line and validates it. No accepted token can contain a raw newline, and
     * whitespace here excludes it. On MALFORMED the line end is not known; {@link #lineEnd} is left at
     * {@code start} and the caller searches for the newline.
     */
    int scanLine(byte[] b, int start, int end) {
        sawEscape = false;
        lineEnd = start;
        int p = skipWhitespace(b, start, end);
        if (p == end || b[p] == '\n') {
            lineEnd = p;
            return BLANK;
        }
        if (b[p] != '{') {
            return MALFORMED;
        }
        objectStart = p;
        boolean[] arrays = inArray;
        int depth = 0;
        for (;;) {
            // p is at the first byte of a value
            if (p >= end) {
                return MALFORMED;
            }
            byte c = b[p];
            if (c == '"') {
                p = skipString(b, p + 1, end);
                if (p < 0) {
                    return MALFORMED;
                }
            } else if (c == '{') {
                if (++depth > MAX_DEPTH) {
                    return MALFORMED;
                }
                arrays[depth] = false;
                p = skipWhitespace(b, p + 1, end);
                if (p < end && b[p] == '}') {
                    depth--;
                    p++;
                } else {
                    p = skipMemberName(b, p, end);
                    if (p < 0) {
                        return MALFORMED;
                    }
                    continue;
                }
            } else if (c == '[') {
                if (++depth > MAX_DEPTH) {
                    return MALFORMED;
                }
                arrays[depth] = true;
                p = skipWhitespace(b, p + 1, end);
                if (p < end && b[p] == ']') {
                    depth--;
                    p++;
                } else {
                    continue;
                }
            } else if (c == '-' || (c >= '0' && c <= '9')) {
                p = skipNumber(b, p, end);
                if (p < 0) {
                    return MALFORMED;
                }
            } else if (c == 't') {
                if (!hasLiteral(b, p, end, 'r', 'u', 'e')) {
                    return MALFORMED;
                }
                p += 4;
            } else if (c == 'n') {
                if (!hasLiteral(b, p, end, 'u', 'l', 'l')) {
                    return MALFORMED;
                }
                p += 4;
            } else if (c == 'f') {
                if (end - p < 5 || b[p + 4] != 'e' || !hasLiteral(b, p, end, 'a', 'l', 's')) {
                    return MALFORMED;
                }
                p += 5;
            } else {
                return MALFORMED;
            }
            // after a complete value: close containers until a comma starts the next value
            for (;;) {
                p = skipWhitespace(b, p, end);
                if (depth == 0) {
                    if (p == end || b[p] == '\n') {
                        lineEnd = p;
                        return OBJECT;
                    }
                    return MALFORMED;
                }
                if (p >= end) {
                    return MALFORMED;
                }
                c = b[p];
                if (c == ',') {
                    p = skipWhitespace(b, p + 1, end);
                    if (!arrays[depth]) {
                        p = skipMemberName(b, p, end);
                        if (p < 0) {
                            return MALFORMED;
                        }
                    }
                    break;
                }
                if (c != (arrays[depth] ? ']' : '}')) {
                    return MALFORMED;
                }
                depth--;
                p++;
            }
        }
    }

    /** True when all of {@code b[start, end)} is one line holding exactly one JSON object. */
    boolean isSingleObject(byte[] b, int start, int end) {
        return scanLine(b, start, end) == OBJECT && lineEnd == end;
    }

    /** Skips {@code "name" ws : ws}; returns the index of the value, or -1. */
    private int skipMemberName(byte[] b, int p, int end) {
        if (p >= end || b[p] != '"') {
            return -1;
        }
        p = skipString(b, p + 1, end);
        if (p < 0) {
            return -1;
        }
        p = skipWhitespace(b, p, end);
        if (p >= end || b[p] != ':') {
            return -1;
        }
        return skipWhitespace(b, p + 1, end);
    }

    /** Three bytes after the literal's first byte at {@code p}. */
    private static boolean hasLiteral(byte[] b, int p, int end, char c1, char c2, char c3) {
        return end - p >= 4 && b[p + 1] == c1 && b[p + 2] == c2 && b[p + 3] == c3;
    }

    /** Space, tab and carriage return: JSON whitespace except the newline, which ends the line. */
    static int skipWhitespace(byte[] b, int p, int end) {
        while (p < end) {
            byte c = b[p];
            if (c != ' ' && c != '\t' && c != '\r') {
                break;
            }
            p++;
        }
        return p;
    }

    /** {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}; returns the index after it, or -1. */
    static int skipNumber(byte[] b, int p, int end) {
        if (b[p] == '-') {
            p++;
        }
        if (p >= end) {
            return -1;
        }
        byte c = b[p];
        if (c == '0') {
            p++;
        } else if (c >= '1' && c <= '9') {
            p = skipDigits(b, p + 1, end);
        } else {
            return -1;
        }
        if (p < end && b[p] == '.') {
            int digits = skipDigits(b, p + 1, end);
            if (digits == p + 1) {
                return -1;
            }
            p = digits;
        }
        if (p < end && (b[p] == 'e' || b[p] == 'E')) {
            p++;
            if (p < end && (b[p] == '+' || b[p] == '-')) {
                p++;
            }
            int digits = skipDigits(b, p, end);
            if (digits == p) {
                return -1;
            }
            p = digits;
        }
        return p;
    }

    private static int skipDigits(byte[] b, int p, int end) {
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p;
    }

    /**
     * Skips a string body starting after its opening quote: valid escapes, no raw control characters,
     * valid UTF-8. Returns the index after the closing quote, or -1.
     */
    int skipString(byte[] b, int p, int end) {
        byte[] plain = PLAIN_IN_STRING;
        for (;;) {
            while (p < end && plain[b[p] & 0xFF] != 0) {
                p++;
            }
            if (p >= end) {
                return -1;
            }
            int c = b[p];
            if (c == '"') {
                return p + 1;
            }
            if (c == '\\') {
                sawEscape = true;
                p = skipEscape(b, p + 1, end);
                if (p < 0) {
                    return -1;
                }
            } else if (c < 0) {
                p = skipUtf8Sequence(b, p, end);
                if (p < 0) {
                    return -1;
                }
            } else {
                return -1; // control character
            }
        }
    }

    private static int skipEscape(byte[] b, int p, int end) {
        if (p >= end) {
            return -1;
        }
        switch (b[p]) {
            case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> {
                return p + 1;
            }
            case 'u' -> {
                if (end - p < 5) {
                    return -1;
                }
                for (int i = 1; i <= 4; i++) {
                    if (hexValue(b[p + i]) < 0) {
                        return -1;
                    }
                }
                return p + 5;
            }
            default -> {
                return -1;
            }
        }
    }

    static int hexValue(byte c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }

    /**
     * One well-formed UTF-8 sequence (Unicode 15, table 3-7) starting at a byte >= 0x80: no overlong
     * forms, no encoded surrogates, nothing above U+10FFFF, no truncation. Returns the index after it, or -1.
     */
    static int skipUtf8Sequence(byte[] b, int p, int end) {
        int lead = b[p] & 0xFF;
        if (lead < 0xC2) {
            return -1; // continuation byte, or C0/C1 (overlong two-byte form)
        }
        if (lead < 0xE0) {
            return p + 1 < end && isContinuation(b[p + 1]) ? p + 2 : -1;
        }
        if (lead < 0xF0) {
            if (end - p < 3) {
                return -1;
            }
            int second = b[p + 1] & 0xFF;
            int min = lead == 0xE0 ? 0xA0 : 0x80; // E0 80..9F would be overlong
            int max = lead == 0xED ? 0x9F : 0xBF; // ED A0..BF would encode a surrogate
            if (second < min || second > max || !isContinuation(b[p + 2])) {
                return -1;
            }
            return p + 3;
        }
        if (lead < 0xF5) {
            if (end - p < 4) {
                return -1;
            }
            int second = b[p + 1] & 0xFF;
            int min = lead == 0xF0 ? 0x90 : 0x80; // F0 80..8F would be overlong
            int max = lead == 0xF4 ? 0x8F : 0xBF; // F4 90.. would be above U+10FFFF
            if (second < min || second > max || !isContinuation(b[p + 2]) || !isContinuation(b[p + 3])) {
                return -1;
            }
            return p + 4;
        }
        return -1; // F5..FF never appear in UTF-8
    }

    private static boolean isContinuation(byte c) {
        return (c & 0xC0) == 0x80;
    }
}
