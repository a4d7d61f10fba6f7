package batchpipe.worker.scan;

/**
 * <b>Reference for the differential tests</b>: the scanner's code as it was before issue 19 (commit
 * b2163fc), so that ScanDifferentialTest can hold the fast path to exactly its answers on every line.
 * Where that code had been carried into {@link JsonLineValidator} unchanged (the structure walk, numbers)
 * it is written here in another form, a recursive descent and a state machine, since a copy would share
 * any bug with the code it checks; strings are read a byte and a decision at a time, and the UTF-8 check
 * decodes each sequence and checks the code point's range. The outcome constants are the validator's own.
 *
 * <p>Strict RFC 8259 check that a byte range is exactly one JSON object, in valid UTF-8, nested at most
 * {@link #MAX_DEPTH} levels. jsoniter checks almost none of this (its skip counts braces, skips three
 * bytes for any literal starting with {@code t} or {@code n}, and accepts any byte inside strings and
 * numbers), so every line is validated here first and jsoniter only navigates lines known to be valid.
 *
 * <p>One instance per thread; not thread-safe.
 */
final class ReferenceLineValidator {

    /** The root object is depth 1; a line nested deeper than this is malformed. */
    static final int MAX_DEPTH = 512;

    /** {@link #scanLine}'s outcomes: the validator's, so that both are compared on the same values. */
    static final int BLANK = JsonLineValidator.BLANK;
    static final int OBJECT = JsonLineValidator.OBJECT;
    static final int MALFORMED = JsonLineValidator.MALFORMED;

    /** After {@link #scanLine}: for BLANK and OBJECT, the index of the line's newline (or its end). */
    int lineEnd;
    /** After {@link #scanLine} returned OBJECT: the index of its opening brace. */
    int objectStart;
    /** After {@link #scanLine} returned OBJECT: whether any string in it holds a backslash escape. */
    boolean sawEscape;

    /**
     * Checks the line starting at {@code start}: it ends at the first {@code \n} or at {@code end}. Found
     * first here, then validated as a whole; no accepted token can contain a raw newline, so this gives the
     * same verdict as validating up to the newline. On MALFORMED, {@link #lineEnd} is left at {@code start}.
     */
    int scanLine(byte[] b, int start, int end) {
        sawEscape = false;
        lineEnd = start;
        int newline = start;
        while (newline < end && b[newline] != '\n') {
            newline++;
        }
        int first = skipWhitespace(b, start, newline);
        if (first == newline) {
            lineEnd = newline;
            return BLANK;
        }
        if (b[first] != '{') {
            return MALFORMED;
        }
        objectStart = first;
        int after = value(b, first, newline, 0);
        if (after < 0 || skipWhitespace(b, after, newline) != newline) {
            return MALFORMED;
        }
        lineEnd = newline;
        return OBJECT;
    }

    /** True when all of {@code b[start, end)} is one line holding exactly one JSON object. */
    boolean isSingleObject(byte[] b, int start, int end) {
        return scanLine(b, start, end) == OBJECT && lineEnd == end;
    }

    /** The value at {@code p} inside {@code depth} open containers; returns the index after it, or -1. */
    private int value(byte[] b, int p, int end, int depth) {
        if (p >= end) {
            return -1;
        }
        return switch (b[p]) {
            case '{' -> container(b, p, end, depth + 1, '}');
            case '[' -> container(b, p, end, depth + 1, ']');
            case '"' -> skipString(b, p + 1, end);
            case 't' -> literal(b, p, end, "true");
            case 'f' -> literal(b, p, end, "false");
            case 'n' -> literal(b, p, end, "null");
            default -> skipNumber(b, p, end);
        };
    }

    /**
     * The object or array opening at {@code p}, the {@code depth}th open container, up to its
     * {@code close}; returns the index after it, or -1. Recursive: {@link #MAX_DEPTH} bounds the depth.
     */
    private int container(byte[] b, int p, int end, int depth, char close) {
        if (depth > MAX_DEPTH) {
            return -1;
        }
        p = skipWhitespace(b, p + 1, end);
        if (p < end && b[p] == close) {
            return p + 1;
        }
        for (;;) {
            if (close == '}') {
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
                p = skipWhitespace(b, p + 1, end);
            }
            p = value(b, p, end, depth);
            if (p < 0) {
                return -1;
            }
            p = skipWhitespace(b, p, end);
            if (p >= end || (b[p] != ',' && b[p] != close)) {
                return -1;
            }
            if (b[p] == close) {
                return p + 1;
            }
            p = skipWhitespace(b, p + 1, end);
        }
    }

    /** {@code word} spelled out at {@code p}; returns the index after it, or -1. */
    private static int literal(byte[] b, int p, int end, String word) {
        for (int i = 0; i < word.length(); i++) {
            if (p + i >= end || b[p + i] != word.charAt(i)) {
                return -1;
            }
        }
        return p + word.length();
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

    /**
     * {@code -? (0 | [1-9][0-9]*) (. [0-9]+)? ([eE] [+-]? [0-9]+)?}, the longest match from {@code p}, as a
     * state machine over one byte at a time; returns the index after it, or -1 if it stops short of a number.
     */
    static int skipNumber(byte[] b, int p, int end) {
        // 0 start, 1 after the minus, 2 a leading zero, 3 integer digits, 4 after the point, 5 fraction digits,
        // 6 after the e, 7 after the exponent's sign, 8 exponent digits
        int state = 0;
        for (; p < end; p++) {
            byte c = b[p];
            boolean digit = c >= '0' && c <= '9';
            boolean exponent = c == 'e' || c == 'E';
            int next = switch (state) {
                case 0 -> c == '-' ? 1 : c == '0' ? 2 : digit ? 3 : -1;
                case 1 -> c == '0' ? 2 : digit ? 3 : -1;
                case 2 -> c == '.' ? 4 : exponent ? 6 : -1;
                case 3 -> digit ? 3 : c == '.' ? 4 : exponent ? 6 : -1;
                case 4, 5 -> digit ? 5 : state == 5 && exponent ? 6 : -1;
                case 6 -> c == '+' || c == '-' ? 7 : digit ? 8 : -1;
                default -> digit ? 8 : -1; // 7 and 8
            };
            if (next < 0) {
                break;
            }
            state = next;
        }
        return state == 2 || state == 3 || state == 5 || state == 8 ? p : -1;
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
        // One byte, one decision. The pre-issue-19 table loop lives on as bench-jmh StringSkipBenchmark's
        // baseline; this oracle spells the same rules out rather than repeat that code.
        while (p < end) {
            int c = b[p] & 0xFF;
            if (c == '"') {
                return p + 1;
            } else if (c == '\\') {
                sawEscape = true;
                p = skipEscape(b, p + 1, end);
            } else if (c < 0x20) {
                return -1; // control character
            } else if (c >= 0x80) {
                p = skipUtf8Sequence(b, p, end);
            } else {
                p++;
            }
            if (p < 0) {
                return -1;
            }
        }
        return -1;
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
     * One well-formed UTF-8 sequence starting at a byte >= 0x80, found by decoding it: a lead byte of two to
     * four bytes, that many continuation bytes, and a code point that is neither overlong, a surrogate nor
     * above U+10FFFF. Returns the index after it, or -1.
     */
    static int skipUtf8Sequence(byte[] b, int p, int end) {
        int lead = b[p] & 0xFF;
        int length;
        int codePoint;
        if ((lead & 0xE0) == 0xC0) {
            length = 2;
            codePoint = lead & 0x1F;
        } else if ((lead & 0xF0) == 0xE0) {
            length = 3;
            codePoint = lead & 0x0F;
        } else if ((lead & 0xF8) == 0xF0) {
            length = 4;
            codePoint = lead & 0x07;
        } else {
            return -1;
        }
        if (end - p < length) {
            return -1;
        }
        for (int i = 1; i < length; i++) {
            int c = b[p + i] & 0xFF;
            if ((c & 0xC0) != 0x80) {
                return -1;
            }
            codePoint = codePoint << 6 | (c & 0x3F);
        }
        int least = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000;
        if (codePoint < least || codePoint > 0x10FFFF || (codePoint >= 0xD800 && codePoint <= 0xDFFF)) {
            return -1;
        }
        return p + length;
    }
}
