package batchpipe.worker.scan;

import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a chunk of whole lines and tallies them: blank lines are skipped, each other line is an event
 * when it is exactly one JSON object, else malformed. One pass per line: the validator finds the
 * countBy and match values while it checks the line. One instance per thread at a time.
 */
final class ChunkParser {

    /** Lines per call of {@link #parseLines}: enough to make the call's cost vanish, few enough to be called often. */
    static final int LINES_PER_CALL = 64;

    private final int maxLineBytes;
    private final List<String> countBy;
    private final int countByPaths;
    private final JsonLineValidator validator = new JsonLineValidator();
    /** Whether any path is extracted (countBy or a FieldEquals match). */
    private final boolean extracts;
    private final JsonStringDecoder valueDecoder = new JsonStringDecoder();
    /** What {@link #selectValue} picked: the array holding the value, and where it starts there. */
    private byte[] selectedBytes;
    private int selectedFrom;
    /** Slot of the FieldEquals path, or -1. */
    private final int equalsSlot;
    private final byte[] equalsValue;
    private final byte[] containsText;

    ChunkParser(ScanOptions options) {
        this.maxLineBytes = options.maxLineBytes();
        this.countBy = options.countBy();
        this.countByPaths = countBy.size();
        FieldPathTree tree = FieldPathTree.of(FieldPathTree.pathsOf(options));
        this.extracts = tree.slotCount > 0;
        validator.extract(tree);
        equalsValue = equalsValue(options.match());
        equalsSlot = equalsValue == null ? -1 : countByPaths;
        containsText = containsText(options.match());
    }

    // Package-private for the differential tests' reference parser: turning the match into bytes is not what
    // they check, so both parsers share it.

    /** A FieldEquals match's value as the bytes a line's value is compared with, or null for any other match. */
    static byte[] equalsValue(Match match) {
        return match instanceof Match.FieldEquals equals ? utf8(equals.value()) : null;
    }

    /** A Contains match's text as the bytes looked for in each line, or null for any other match. */
    static byte[] containsText(Match match) {
        return match instanceof Match.Contains contains ? utf8(contains.text()) : null;
    }

    /** UTF-8 with unpaired surrogates as U+FFFD, the same way escaped ones are decoded from lines. */
    private static byte[] utf8(String s) {
        try {
            ByteBuffer bytes = StandardCharsets.UTF_8.newEncoder()
                    .onMalformedInput(CodingErrorAction.REPLACE)
                    .onUnmappableCharacter(CodingErrorAction.REPLACE)
                    .replaceWith(new byte[] {(byte) 0xEF, (byte) 0xBF, (byte) 0xBD})
                    .encode(CharBuffer.wrap(s));
            return Arrays.copyOfRange(bytes.array(), bytes.position(), bytes.limit());
        } catch (CharacterCodingException e) {
            throw new IllegalStateException("a replacing encoder cannot fail", e);
        }
    }

    /**
     * Tallies {@code b[start, end)}. Every line but the chunk's last ends with {@code \n}; the last one may
     * not (end of object).
     */
    ChunkTally parse(byte[] b, int start, int end) {
        // Here rather than when a scan starts, so that the reading thread decompresses the first chunks while
        // a CLI's background priming ends (the reader waited up to ~40 ms for it); a chunk parsed meanwhile
        // waits for it here. Free once primed: a constant test. The priming's own parses pass straight through.
        ParserPriming.ensure();
        ChunkTally tally = new ChunkTally(countBy);
        int p = start;
        while (p < end) {
            p = parseLines(tally, b, p, end);
        }
        return tally;
    }

    /**
     * Tallies up to {@value #LINES_PER_CALL} lines from {@code p}; returns where the next line starts (past
     * {@code end} after a last line without a newline). The lines' loop is a method of its own, entered
     * every few dozen lines, because this method is entered once a chunk, a few hundred times in a scan of a
     * few hundred MB: with on-stack replacement off (the CLI's scan), C2 compiles a method only once it has
     * been called 600-5,000 times, so the loop over a chunk's lines ran every scan as C1 code
     * ({@code -XX:+PrintCompilation}: tier 2 to the end on all three corpora).
     */
    private int parseLines(ChunkTally tally, byte[] b, int p, int end) {
        JsonLineValidator v = validator;
        long line = tally.lines;
        int lineLimit = maxLineBytes + 2; // content, a carriage return, the newline
        for (int n = 0; n < LINES_PER_CALL && p < end; n++) {
            line++;
            // validate at most one maximal line's worth: longer lines are oversized whatever they hold
            int window = end - p > lineLimit ? p + lineLimit : end;
            int kind = v.scanLine(b, p, window);
            int lineEnd = v.lineEnd;
            if (kind == JsonLineValidator.MALFORMED || (lineEnd == window && window != end)) {
                int newline = indexOfNewline(b, lineEnd, end);
                lineEnd = newline < 0 ? end : newline;
                kind = JsonLineValidator.MALFORMED;
            }
            int contentEnd = lineEnd < end && lineEnd > p && b[lineEnd - 1] == '\r' ? lineEnd - 1 : lineEnd;
            if (contentEnd - p > maxLineBytes) {
                tally.oversized++;
                tally.malformedAt(line);
            } else if (kind == JsonLineValidator.MALFORMED) {
                tally.malformedAt(line);
            } else if (kind == JsonLineValidator.OBJECT) {
                tally.events++;
                tallyEvent(tally, b, p, contentEnd);
            }
            p = lineEnd + 1;
        }
        tally.lines = line;
        return p;
    }

    private void tallyEvent(ChunkTally tally, byte[] b, int start, int end) {
        if (extracts) {
            JsonLineValidator v = validator;
            boolean escapes = v.sawEscape;
            for (int slot = 0; slot < countByPaths; slot++) {
                int valueStart = v.valueStart[slot];
                if (valueStart >= 0) {
                    count(tally.counts[slot], b, valueStart, v.valueEnd[slot], escapes);
                }
            }
            if (equalsSlot >= 0
                    && valueEquals(b, v.valueStart[equalsSlot], v.valueEnd[equalsSlot], escapes)) {
                tally.matches++;
            }
        }
        if (containsText != null && contains(b, start, end, containsText)) {
            tally.matches++;
        }
    }

    // count and valueEquals take the value's bytes from selectValue and make one call each: C2 inlines a callee
    // once per call site, and three sites of the counting (hash, probe, insert) made count and tallyEvent the
    // costliest compiles after scanLine (22 and 21 ms, JFR jdk.Compilation), paid at the start of every CLI scan.
    private void count(BoundedValueCounts counts, byte[] b, int start, int end, boolean escapes) {
        int to = selectValue(b, start, end, escapes);
        counts.add(selectedBytes, selectedFrom, to - selectedFrom);
    }

    private boolean valueEquals(byte[] b, int start, int end, boolean escapes) {
        if (start < 0) {
            return false;
        }
        int to = selectValue(b, start, end, escapes);
        byte[] expected = equalsValue;
        return Arrays.equals(selectedBytes, selectedFrom, to, expected, 0, expected.length);
    }

    /**
     * Points {@link #selectedBytes} and {@link #selectedFrom} at the value {@code b[start, end)} as it is counted
     * and compared (a string without its quotes, decoded if it has escapes; any other value as written) and
     * returns the index where it ends there.
     */
    private int selectValue(byte[] b, int start, int end, boolean escapes) {
        selectedBytes = b;
        if (b[start] != '"') {
            selectedFrom = start;
            return end;
        }
        if (escapes && JsonStringDecoder.hasEscape(b, start + 1, end - 1)) {
            int length = valueDecoder.decode(b, start + 1, end - 1);
            selectedBytes = valueDecoder.buffer();
            selectedFrom = 0;
            return length;
        }
        selectedFrom = start + 1;
        return end - 1;
    }

    static boolean contains(byte[] b, int start, int end, byte[] needle) {
        int n = needle.length;
        byte first = needle[0];
        for (int i = start, last = end - n; i <= last; i++) {
            if (b[i] == first && Arrays.equals(b, i, i + n, needle, 0, n)) {
                return true;
            }
        }
        return false;
    }

    /** Index of the first {@code \n} in {@code b[p, end)}, or -1. */
    static int indexOfNewline(byte[] b, int p, int end) {
        for (int i = p; i < end; i++) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
