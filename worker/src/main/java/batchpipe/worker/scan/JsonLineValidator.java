package batchpipe.worker.scan;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.Arrays;

/**
 * Strict RFC 8259 check that a byte range is exactly one JSON object, in valid UTF-8, nested at most
 * {@link #MAX_DEPTH} levels. (jsoniter, which used to navigate lines after this check, checks almost
 * none of it: JsoniterLeniencyTest keeps the cases.)
 *
 * <p>The check is iterative with an explicit container stack, so no input can overflow the thread stack.
 * A string is read eight bytes at a time from its first byte (SWAR on {@code long} words: one test finds
 * a quote, a backslash, a control byte or a byte with the high bit set), and UTF-8 is checked only where a
 * high bit appears; a 256-entry table reads the few bytes left where fewer than eight remain. Names and
 * short values then cost a word or two each, and stack traces and request bodies a few operations per
 * eight bytes. Runs of digits are read the same way. (The table used to read a string's first 16 bytes:
 * the parse of the bench's lines is 7-16% faster without it, see docs/BENCHMARKS.md, issue 19's third pass.)
 * A run of numbers or of strings in an array, of escapes, or of non-ASCII characters is read in a loop of
 * its own, not through the dispatch per value or the word test after each one (sample arrays, tag lists,
 * stack traces and request bodies: ~10% of a long-value scan, issue 19's fifth pass).
 *
 * <p>With a {@link FieldPathTree} ({@link #extract}), the same pass also finds the values at the
 * requested paths, as {@code FieldPathReader} did in a second pass over the line: the first occurrence
 * of a name in an object wins, only scalars are taken, arrays are not looked into. A value nobody asked
 * for is only validated, never built or copied. One instance per thread; not thread-safe.
 */
final class JsonLineValidator {

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

    /** Each byte's value as a hex digit, -1 for any other byte. */
    private static final byte[] HEX_VALUE = new byte[256];

    static {
        Arrays.fill(HEX_VALUE, (byte) -1);
        for (int c = '0'; c <= '9'; c++) {
            HEX_VALUE[c] = (byte) (c - '0');
        }
        for (int c = 'a'; c <= 'f'; c++) {
            HEX_VALUE[c] = (byte) (c - 'a' + 10);
            HEX_VALUE[c - 'a' + 'A'] = (byte) (c - 'a' + 10);
        }
    }

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long ONES = 0x0101010101010101L;
    private static final long HIGHS = 0x8080808080808080L;

    /** For each open container: true when it is an array, false when an object. */
    private final boolean[] inArray = new boolean[MAX_DEPTH + 1];

    /** The requested paths, or null when nothing is extracted. */
    private FieldPathTree tree;
    /** For each open object: its node when it lies on a requested path, else null. */
    private final FieldPathTree.Node[] nodes = new FieldPathTree.Node[MAX_DEPTH + 1];
    /** For each open object on a path: which of its node's children have been seen (the first one wins). */
    private final long[] seen = new long[MAX_DEPTH + 1];
    /** The node of the member whose value comes next, or null. */
    private FieldPathTree.Node pending;
    private final JsonStringDecoder keyDecoder = new JsonStringDecoder();
    /** After {@link #scanLine} returned OBJECT, per slot: start of the scalar's JSON text (a string with its quotes), or -1. */
    int[] valueStart = new int[0];
    /** Per slot: end (exclusive) of the scalar's JSON text. */
    int[] valueEnd = new int[0];

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

    /** From now on, also find the values at {@code paths}' slots in every line. */
    void extract(FieldPathTree paths) {
        this.tree = paths.slotCount == 0 ? null : paths;
        this.valueStart = new int[paths.slotCount];
        this.valueEnd = new int[paths.slotCount];
    }

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
        FieldPathTree.Node[] objectNodes = nodes;
        if (tree != null) {
            Arrays.fill(valueStart, -1);
        }
        pending = tree == null ? null : tree.root;
        int depth = 0;
        for (;;) {
            // p is at the first byte of a value; pending is the node it answers, if any
            if (p >= end) {
                return MALFORMED;
            }
            byte c = b[p];
            int valueAt = p;
            if (c == '"') {
                p = skipString(b, p + 1, end);
                if (p < 0) {
                    return MALFORMED;
                }
                if (pending != null) {
                    take(pending, valueAt, p);
                } else if (arrays[depth]) {
                    // the rest of a run of strings in an array (tags, ids), without the dispatch per value;
                    // nothing in an array is extracted, and anything else goes the general way below
                    while (end - p > 1 && b[p] == ',' && b[p + 1] == '"') {
                        p = skipString(b, p + 2, end);
                        if (p < 0) {
                            return MALFORMED;
                        }
                    }
                }
            } else if (c == '{') {
                if (++depth > MAX_DEPTH) {
                    return MALFORMED;
                }
                arrays[depth] = false;
                FieldPathTree.Node node = pending != null && pending.children.length > 0 ? pending : null;
                objectNodes[depth] = node;
                if (node != null) {
                    seen[depth] = 0;
                }
                p = skipWhitespace(b, p + 1, end);
                if (p < end && b[p] == '}') {
                    depth--;
                    p++;
                } else {
                    p = skipMemberName(b, p, end, depth);
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
                objectNodes[depth] = null;
                pending = null; // arrays are not looked into
                p = skipWhitespace(b, p + 1, end);
                if (p < end && b[p] == ']') {
                    depth--;
                    p++;
                } else {
                    continue;
                }
            } else {
                if (c == '-' || (c >= '0' && c <= '9')) {
                    p = skipNumber(b, p, end);
                    if (p < 0) {
                        return MALFORMED;
                    }
                    if (arrays[depth]) {
                        // the rest of a run of numbers in an array (samples, coordinates), as for strings above
                        while (end - p > 1 && b[p] == ',' && isNumberStart(b[p + 1])) {
                            p = skipNumber(b, p + 1, end);
                            if (p < 0) {
                                return MALFORMED;
                            }
                        }
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
                if (pending != null) {
                    take(pending, valueAt, p);
                }
            }
            // after a complete value: close containers until a comma starts the next value
            for (;;) {
                p = skipWhitespace(b, p, end);
                // "<= 0", never below 0 here: with "== 0" C2 made depth a counted loop's exit and guarded it
                // with a loop-limit predicate that failed on real logs, discarding the compiled validator
                // a few hundred ms into every scan (-Xlog:deoptimization: loop_limit_check at this test)
                if (depth <= 0) {
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
                        p = skipMemberName(b, p, end, depth);
                        if (p < 0) {
                            return MALFORMED;
                        }
                    } else {
                        pending = null;
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

    /** The value at {@code b[start, end)} answers {@code node}: a scalar, so its slots take it. */
    private void take(FieldPathTree.Node node, int start, int end) {
        for (int slot : node.slots) {
            valueStart[slot] = start;
            valueEnd[slot] = end;
        }
    }

    /**
     * Skips {@code "name" ws : ws} of a member of the object at {@code depth}; returns the index of the
     * value, or -1. Sets {@link #pending} to the node the value answers: a child of the object's node
     * with this name that the object has not had before, else null.
     */
    private int skipMemberName(byte[] b, int p, int end, int depth) {
        if (p >= end || b[p] != '"') {
            return -1;
        }
        int nameStart = p + 1;
        p = skipString(b, nameStart, end);
        if (p < 0) {
            return -1;
        }
        FieldPathTree.Node node = nodes[depth];
        pending = node == null ? null : child(node, depth, b, nameStart, p - 1);
        p = skipWhitespace(b, p, end);
        if (p >= end || b[p] != ':') {
            return -1;
        }
        return skipWhitespace(b, p + 1, end);
    }

    /** The child of {@code node} named {@code b[nameStart, nameEnd)} not yet seen in this object, or null; marks it seen. */
    private FieldPathTree.Node child(FieldPathTree.Node node, int depth, byte[] b, int nameStart, int nameEnd) {
        FieldPathTree.Node[] children = node.children;
        int start = nameStart;
        int len = nameEnd - nameStart;
        if (sawEscape && JsonStringDecoder.hasEscape(b, nameStart, nameEnd)) {
            len = keyDecoder.decode(b, nameStart, nameEnd);
            b = keyDecoder.buffer();
            start = 0;
        }
        long seenHere = seen[depth];
        if (seenHere == node.allChildren) {
            return null; // every name asked for here has been had: the rest of the object is only checked
        }
        long head = ByteWords.headWord(b, start, len);
        for (int i = 0; i < children.length; i++) {
            FieldPathTree.Node candidate = children[i];
            byte[] name = candidate.name;
            if (candidate.head == head && name.length == len && (seenHere & (1L << i)) == 0
                    && (len <= 8 || sameBytes(name, b, start, len))) {
                long seenNow = seenHere | 1L << i;
                seen[depth] = seenNow;
                if (seenNow == node.allChildren) {
                    // every name asked for here has been had: the object's other members are only checked,
                    // with no call here (this look-up was a sixth of the short-line scan's samples)
                    nodes[depth] = null;
                }
                return children[i];
            }
        }
        return null;
    }

    /** Names are short: a plain loop beats the vectorized mismatch's setup. */
    private static boolean sameBytes(byte[] name, byte[] b, int start, int len) {
        for (int i = 0; i < len; i++) {
            if (name[i] != b[start + i]) {
                return false;
            }
        }
        return true;
    }

    /**
     * The run loop's test. The dispatch above spells the same test out: calling this there too made whole
     * long-value scans ~7% slower side by side (8 rounds: 1.050 against 0.978 s), likely because an inlined
     * method's branch profile is shared by its call sites and the two see different bytes.
     */
    private static boolean isNumberStart(byte c) {
        return c == '-' || (c >= '0' && c <= '9');
    }

    /** Three bytes after the literal's first byte at {@code p}. */
    private static boolean hasLiteral(byte[] b, int p, int end, char c1, char c2, char c3) {
        return end - p >= 4 && b[p + 1] == c1 && b[p + 2] == c2 && b[p + 3] == c3;
    }

    /** Space, tab and carriage return: JSON whitespace except the newline, which ends the line. */
    static int skipWhitespace(byte[] b, int p, int end) {
        while (p < end) {
            byte c = b[p];
            // JSON whitespace is at most a space, and the byte after a token is almost always above it
            // (a quote, a colon, a comma, a bracket): one test for those instead of three
            if (c > ' ' || (c != ' ' && c != '\t' && c != '\r')) {
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

    /** Skips ASCII digits, eight at a time while a word remains: timestamps, ids and number arrays are runs of them. */
    static int skipDigits(byte[] b, int p, int end) {
        while (end - p >= 8) {
            long nonDigits = nonDigitBytes((long) LONG_LE.get(b, p));
            if (nonDigits != 0) {
                return p + (Long.numberOfTrailingZeros(nonDigits) >>> 3);
            }
            p += 8;
        }
        while (p < end && b[p] >= '0' && b[p] <= '9') {
            p++;
        }
        return p;
    }

    /**
     * Bits set in the high half of each byte of {@code word} that is not an ASCII digit; exact for the lowest
     * such byte. A digit is 0x30-0x39: its high half is 3, and still 3 after adding 6 (0x3A-0x3F become
     * 0x40-0x45). A carry out of a byte >= 0xFA can only spoil the bytes above one already marked.
     */
    static long nonDigitBytes(long word) {
        long high = 0xF0F0F0F0F0F0F0F0L;
        long three = 0x3030303030303030L;
        return ((word & high) ^ three) | (((word + 0x0606060606060606L) & high) ^ three);
    }

    /**
     * Skips a string body starting after its opening quote: valid escapes, no raw control characters,
     * valid UTF-8. Returns the index after the closing quote, or -1.
     */
    int skipString(byte[] b, int p, int end) {
        while (end - p >= 8) {
            long special = specialBytes((long) LONG_LE.get(b, p));
            if (special != 0) {
                p += Long.numberOfTrailingZeros(special) >>> 3;
                if (b[p] == '"') {
                    return p + 1;
                }
                return skipStringRest(b, p, end);
            }
            p += 8;
        }
        return skipStringRest(b, p, end);
    }

    /** The string from {@code p} on, where the word loop stopped short of its closing quote. */
    private int skipStringRest(byte[] b, int p, int end) {
        byte[] plain = PLAIN_IN_STRING;
        for (;;) {
            if (p >= end) {
                return -1;
            }
            int c = b[p];
            if (c == '"') {
                return p + 1;
            }
            if (c == '\\') {
                sawEscape = true;
                // escapes come in runs (\n\tat in a stack trace, \uD83D\uDE00): no word test between them
                do {
                    p = skipEscape(b, p + 1, end);
                    if (p < 0) {
                        return -1;
                    }
                } while (p < end && b[p] == '\\');
            } else if (c < 0) {
                // so do non-ASCII characters (a word of Cyrillic or Japanese text)
                do {
                    p = skipUtf8Sequence(b, p, end);
                    if (p < 0) {
                        return -1;
                    }
                } while (p < end && b[p] < 0);
            } else if (c < 0x20) {
                return -1; // control character
            }
            // After every escape or UTF-8 sequence (and for a plain byte, reached only when the caller's
            // word loop ran out of whole words), the string is read a word at a time again.
            p = skipPlainWords(b, p, end);
            while (p < end && plain[b[p] & 0xFF] != 0) {
                p++;
            }
        }
    }

    /**
     * Skips plain string bytes eight at a time while a whole word of them remains; returns the index of
     * the first byte that is not plain (a quote, a backslash, a control byte, a byte >= 0x80), or the
     * index where fewer than eight bytes remain.
     */
    static int skipPlainWords(byte[] b, int p, int end) {
        while (end - p >= 8) {
            long special = specialBytes((long) LONG_LE.get(b, p));
            if (special != 0) {
                return p + (Long.numberOfTrailingZeros(special) >>> 3);
            }
            p += 8;
        }
        return p;
    }

    /**
     * The high bit of each byte of {@code word} (little-endian: byte 0 lowest) that is a quote, a
     * backslash, below 0x20 or 0x80 and above; exact for the lowest such byte (a borrow may mark bytes
     * above it too, which the caller never looks at).
     */
    static long specialBytes(long word) {
        long quote = word ^ 0x2222222222222222L;
        long backslash = word ^ 0x5C5C5C5C5C5C5C5CL;
        long zeroQuote = quote - ONES & ~quote;
        long zeroBackslash = backslash - ONES & ~backslash;
        // below 0x20: subtracting 0x20 borrows into the high bit. "& ~word" would drop bytes of 0x80 and above
        // from it, but "| word" takes them all anyway: one operation less per word
        long control = word - 0x2020202020202020L;
        return (zeroQuote | zeroBackslash | control | word) & HIGHS;
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
                // four table loads and one test: request bodies and non-Latin text carry a \\u escape every
                // few bytes, and the branchy per-digit check was 15% of the long-values scan's samples (JFR)
                byte[] hex = HEX_VALUE;
                if ((hex[b[p + 1] & 0xFF] | hex[b[p + 2] & 0xFF] | hex[b[p + 3] & 0xFF] | hex[b[p + 4] & 0xFF]) < 0) {
                    return -1;
                }
                return p + 5;
            }
            default -> {
                return -1;
            }
        }
    }

    /** The value of a hex digit, or -1. */
    static int hexValue(byte c) {
        return HEX_VALUE[c & 0xFF];
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
