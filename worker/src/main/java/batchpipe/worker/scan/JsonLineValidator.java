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
 * a quote, a backslash, a control byte or a byte with the high bit set). From the first word that holds
 * anything but plain ASCII, each word that does goes byte by byte through a shift-based DFA that checks
 * UTF-8 and the escapes with no branch on the byte's kind ({@link #TEXT_DFA}: request bodies in several
 * scripts, with an escape or a non-ASCII character every few bytes, went 35-40% faster than with a branch
 * per escape and per character, issue 19's tenth pass). Names and short values then cost a word or two
 * each, and stack traces and request bodies a few operations per byte at most. Runs of digits are read a
 * word at a time too. (The table used to read a string's first 16 bytes:
 * the parse of the bench's lines is 7-16% faster without it, see docs/BENCHMARKS.md, issue 19's third pass.)
 * A run of numbers or of strings in an array is read in a loop of its own, not through the dispatch per
 * value (sample arrays, tag lists: issue 19's fifth pass).
 *
 * <p>With a {@link FieldPathTree} ({@link #extract}), the same pass also finds the values at the
 * requested paths, as {@code FieldPathReader} did in a second pass over the line: the first occurrence
 * of a name in an object wins, only scalars are taken, arrays are not looked into. A value nobody asked
 * for is only validated, never built or copied. One instance per thread; not thread-safe.
 */
final class JsonLineValidator {

    /** The root object is depth 1; a line nested deeper than this is malformed. */
    static final int MAX_DEPTH = 512;

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

    // The states of string text, each a bit offset into the words of TEXT_DFA: a byte's word holds, in six bits
    // at each state's offset, the state it leads to from there (a shift-based DFA: one table load and one shift
    // a byte on the chain from byte to byte, no branch on the byte's kind). UTF-8 as in the Unicode standard's
    // table 3-7, and the escapes. Ten states of six bits fill a word, so the closing quote, the u of a \\u
    // escape (its hex digits are read outside) and every fault share STOP, told apart by the state before it.
    // The offsets need not be multiples of six: ESCAPE is the only odd one, so the states a string went
    // through, ORed, say whether it held an escape.
    /** Between characters. */
    private static final int TEXT = 0;
    /** One continuation byte owed (80-BF). */
    private static final int CONT1 = 6;
    /** Two continuation bytes owed. */
    private static final int CONT2 = 12;
    /** Three continuation bytes owed. */
    private static final int CONT3 = 18;
    /** After E0: A0-BF, then one more (no overlong form). */
    private static final int AFTER_E0 = 24;
    /** After ED: 80-9F, then one more (no surrogate). */
    private static final int AFTER_ED = 30;
    /** After F0: 90-BF, then two more (no overlong form). */
    private static final int AFTER_F0 = 36;
    /** After F4: 80-8F, then two more (nothing above U+10FFFF). */
    private static final int AFTER_F4 = 42;
    /** After a backslash. */
    private static final int ESCAPE = 49;
    /** The text stops: a quote after TEXT, a u after ESCAPE, any fault. It keeps the DFA there. */
    private static final int STOP = 56;
    private static final long[] TEXT_DFA = textDfa();

    private static long[] textDfa() {
        long[] table = new long[256];
        for (int c = 0; c < 256; c++) {
            boolean continuation = c >= 0x80 && c <= 0xBF;
            int fromText;
            if (c == '"') {
                fromText = STOP;
            } else if (c == '\\') {
                fromText = ESCAPE;
            } else if (c < 0x20) {
                fromText = STOP; // a control byte
            } else if (c < 0x80) {
                fromText = TEXT;
            } else if (c < 0xC2) {
                fromText = STOP; // a continuation byte, or C0/C1 (overlong two-byte forms)
            } else if (c < 0xE0) {
                fromText = CONT1;
            } else if (c == 0xE0) {
                fromText = AFTER_E0;
            } else if (c == 0xED) {
                fromText = AFTER_ED;
            } else if (c < 0xF0) {
                fromText = CONT2;
            } else if (c == 0xF0) {
                fromText = AFTER_F0;
            } else if (c < 0xF4) {
                fromText = CONT3;
            } else if (c == 0xF4) {
                fromText = AFTER_F4;
            } else {
                fromText = STOP; // F5-FF never appear in UTF-8
            }
            int fromEscape = switch (c) {
                case '"', '\\', '/', 'b', 'f', 'n', 'r', 't' -> TEXT;
                default -> STOP; // u, or not an escape
            };
            long word = (long) fromText << TEXT;
            word |= (long) (continuation ? TEXT : STOP) << CONT1;
            word |= (long) (continuation ? CONT1 : STOP) << CONT2;
            word |= (long) (continuation ? CONT2 : STOP) << CONT3;
            word |= (long) (c >= 0xA0 && c <= 0xBF ? CONT1 : STOP) << AFTER_E0;
            word |= (long) (c >= 0x80 && c <= 0x9F ? CONT1 : STOP) << AFTER_ED;
            word |= (long) (c >= 0x90 && c <= 0xBF ? CONT2 : STOP) << AFTER_F0;
            word |= (long) (c >= 0x80 && c <= 0x8F ? CONT2 : STOP) << AFTER_F4;
            word |= (long) fromEscape << ESCAPE;
            word |= (long) STOP << STOP;
            table[c] = word;
        }
        return table;
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

    /**
     * The string from {@code p} on, where the word loop stopped short of its closing quote: plain words eight
     * bytes at a time, any other word byte by byte through {@link #TEXT_DFA}, which checks UTF-8 and the
     * escapes as it goes.
     */
    private int skipStringRest(byte[] b, int p, int end) {
        long[] dfa = TEXT_DFA;
        long state = TEXT;
        long visited = 0;
        for (;;) {
            if (end - p >= 8) {
                if (state == TEXT && specialBytes((long) LONG_LE.get(b, p)) == 0) {
                    p += 8;
                    continue;
                }
                // The word's eight bytes with no test between them: STOP keeps the DFA there, so one test after
                // the word says whether it stopped. The shift takes the low six bits of the state, so the next
                // state is not masked out of its word either: the one operation a byte on the chain from byte to
                // byte is the shift.
                long next = state;
                for (int i = 0; i < 8; i++) {
                    next = dfa[b[p + i] & 0xFF] >>> next;
                    visited |= next;
                }
                if ((next & 63) != STOP) {
                    state = next & 63;
                    p += 8;
                    continue;
                }
            }
            // a byte at a time: where the word just read stopped, or the last bytes
            long before;
            do {
                if (p >= end) {
                    return -1;
                }
                before = state;
                state = dfa[b[p++] & 0xFF] >>> state & 63;
                visited |= state;
            } while (state != STOP);
            byte c = b[p - 1];
            if (before == TEXT && c == '"') {
                if ((visited & 1) != 0) { // ESCAPE is the only odd state
                    sawEscape = true;
                }
                return p;
            }
            if (before != ESCAPE || c != 'u') {
                return -1;
            }
            p = skipHexDigits(b, p, end);
            if (p < 0) {
                return -1;
            }
            state = TEXT;
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

    /** The four hex digits of a \\u escape from {@code p}; returns the index after them, or -1. */
    private static int skipHexDigits(byte[] b, int p, int end) {
        if (end - p < 4) {
            return -1;
        }
        // four table loads and one test: request bodies and non-Latin text carry a \\u escape every few bytes,
        // and the branchy per-digit check was 15% of the long-values scan's samples (JFR)
        byte[] hex = HEX_VALUE;
        if ((hex[b[p] & 0xFF] | hex[b[p + 1] & 0xFF] | hex[b[p + 2] & 0xFF] | hex[b[p + 3] & 0xFF]) < 0) {
            return -1;
        }
        return p + 4;
    }

    /** The value of a hex digit, or -1. */
    static int hexValue(byte c) {
        return HEX_VALUE[c & 0xFF];
    }

}
