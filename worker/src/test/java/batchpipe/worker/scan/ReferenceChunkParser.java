package batchpipe.worker.scan;

import java.util.Arrays;
import java.util.List;

/**
 * <b>Reference for the differential tests</b>: the scanner's code as it was before issue 19 (commit
 * b2163fc), so that ScanDifferentialTest can hold the fast path to exactly its answers on every line.
 * What ChunkParser still held unchanged from it (splitting and measuring lines, the Contains search) is
 * written here in a plainer form, since a copy would share any bug with the code it checks; turning the
 * match into bytes is ChunkParser's own, as it is not what the tests check.
 *
 * <p>Splits a chunk of whole lines and tallies them: blank lines are skipped, each other line is an event
 * when it is exactly one JSON object, else malformed. One instance per thread at a time.
 */
final class ReferenceChunkParser {

    private final int maxLineBytes;
    private final List<String> countBy;
    private final int countByPaths;
    private final ReferenceLineValidator validator = new ReferenceLineValidator();
    private final ReferenceFieldPathReader fields;
    private final JsonStringDecoder valueDecoder = new JsonStringDecoder();
    /** Slot of the FieldEquals path, or -1. */
    private final int equalsSlot;
    private final byte[] equalsValue;
    private final byte[] containsText;

    ReferenceChunkParser(ScanOptions options) {
        this.maxLineBytes = options.maxLineBytes();
        this.countBy = options.countBy();
        this.countByPaths = countBy.size();
        FieldPathTree tree = FieldPathTree.of(FieldPathTree.pathsOf(options));
        this.fields = tree.slotCount == 0 ? null : new ReferenceFieldPathReader(tree);
        equalsValue = ChunkParser.equalsValue(options.match());
        equalsSlot = equalsValue == null ? -1 : countByPaths;
        containsText = ChunkParser.containsText(options.match());
    }

    /**
     * Tallies {@code b[start, end)}. Every line but the chunk's last ends with {@code \n}; the last one may
     * not (end of object).
     */
    ChunkTally parse(byte[] b, int start, int end) {
        // Line by line in the plainest order: find the line, measure it, then validate exactly its bytes.
        // (ChunkParser validates first, within a window, and finds the newline only when it must.)
        ChunkTally tally = new ChunkTally(countBy);
        long line = 0;
        for (int p = start; p < end; ) {
            line++;
            int newline = p;
            while (newline < end && b[newline] != '\n') {
                newline++;
            }
            int length = newline - p;
            if (newline < end && length > 0 && b[newline - 1] == '\r') {
                length--; // a carriage return before the newline is not content
            }
            if (length > maxLineBytes) {
                tally.oversized++;
                tally.malformedAt(line);
            } else {
                int kind = validator.scanLine(b, p, newline);
                if (kind == ReferenceLineValidator.MALFORMED) {
                    tally.malformedAt(line);
                } else if (kind == ReferenceLineValidator.OBJECT) {
                    tally.events++;
                    tallyEvent(tally, b, p, p + length);
                }
            }
            p = newline + 1;
        }
        tally.lines = line;
        return tally;
    }

    private void tallyEvent(ChunkTally tally, byte[] b, int start, int end) {
        if (fields != null) {
            boolean escapes = validator.sawEscape;
            fields.read(b, validator.objectStart, end, escapes);
            for (int slot = 0; slot < countByPaths; slot++) {
                int valueStart = fields.valueStart[slot];
                if (valueStart >= 0) {
                    count(tally.counts[slot], b, valueStart, fields.valueEnd[slot], escapes);
                }
            }
            if (equalsSlot >= 0
                    && valueEquals(b, fields.valueStart[equalsSlot], fields.valueEnd[equalsSlot], escapes)) {
                tally.matches++;
            }
        }
        if (containsText != null && contains(b, start, end, containsText)) {
            tally.matches++;
        }
    }

    private void count(BoundedValueCounts counts, byte[] b, int start, int end, boolean escapes) {
        if (b[start] != '"') {
            counts.add(b, start, end - start);
        } else if (escapes && JsonStringDecoder.hasEscape(b, start + 1, end - 1)) {
            int n = valueDecoder.decode(b, start + 1, end - 1);
            counts.add(valueDecoder.buffer(), 0, n);
        } else {
            counts.add(b, start + 1, end - start - 2);
        }
    }

    private boolean valueEquals(byte[] b, int start, int end, boolean escapes) {
        if (start < 0) {
            return false;
        }
        byte[] expected = equalsValue;
        if (b[start] != '"') {
            return Arrays.equals(b, start, end, expected, 0, expected.length);
        }
        if (escapes && JsonStringDecoder.hasEscape(b, start + 1, end - 1)) {
            int n = valueDecoder.decode(b, start + 1, end - 1);
            return Arrays.equals(valueDecoder.buffer(), 0, n, expected, 0, expected.length);
        }
        return Arrays.equals(b, start + 1, end - 1, expected, 0, expected.length);
    }

    /** Whether {@code needle} occurs in {@code b[start, end)}: every position, every byte. */
    static boolean contains(byte[] b, int start, int end, byte[] needle) {
        for (int i = start; i + needle.length <= end; i++) {
            int matched = 0;
            while (matched < needle.length && b[i + matched] == needle[matched]) {
                matched++;
            }
            if (matched == needle.length) {
                return true;
            }
        }
        return false;
    }
}
