package batchpipe.worker.scan;

import com.jsoniter.CodegenAccess;
import com.jsoniter.JsonIterator;
import com.jsoniter.ValueType;

import java.io.IOException;
import java.util.Arrays;

/**
 * <b>Reference for the differential tests</b>: the scanner's code as it was before issue 19 (commit
 * b2163fc), kept unchanged apart from its name, so that ScanDifferentialTest can hold the fast path to
 * exactly its answers on every line.
 *
 * <p>Finds the values at the requested paths in a line already accepted by {@link ReferenceLineValidator},
 * navigating with one reused jsoniter {@link JsonIterator} over the chunk's bytes (no String per line
 * or per key).
 *
 * <p>Duplicate keys: the first occurrence wins. Once every requested name of an object has been seen,
 * the rest of that object is skipped, and once all names at the top level are resolved the walk stops,
 * so most lines are read only as far as their last requested field.
 */
final class ReferenceFieldPathReader {

    private final JsonIterator iter = new JsonIterator();
    private final JsonStringDecoder keyDecoder = new JsonStringDecoder();
    private final FieldPathTree tree;
    /** Per slot: start of the scalar's JSON text (a string includes its quotes), or -1. */
    final int[] valueStart;
    /** Per slot: end (exclusive) of the scalar's JSON text. */
    final int[] valueEnd;
    private byte[] buf;
    private boolean lineHasEscapes;

    ReferenceFieldPathReader(FieldPathTree tree) {
        this.tree = tree;
        this.valueStart = new int[tree.slotCount];
        this.valueEnd = new int[tree.slotCount];
    }

    /**
     * {@code b[objectStart]} is the line's opening brace; the line ends at {@code end}; {@code escapes}
     * tells whether any string in the line has a backslash (when not, names are compared raw).
     */
    void read(byte[] b, int objectStart, int end, boolean escapes) {
        Arrays.fill(valueStart, -1);
        buf = b;
        lineHasEscapes = escapes;
        iter.reset(b, objectStart, end);
        try {
            CodegenAccess.nextToken(iter); // the opening brace
            readObject(tree.root);
        } catch (IOException | RuntimeException e) {
            throw new IllegalStateException("jsoniter rejected a line the validator accepted", e);
        }
    }

    /**
     * Reads members after the opening brace. Returns true when the closing brace was consumed, false
     * when it stopped early because every requested name has been seen.
     */
    private boolean readObject(FieldPathTree.Node node) throws IOException {
        FieldPathTree.Node[] children = node.children;
        int unseen = children.length;
        long seen = 0;
        byte c = CodegenAccess.nextToken(iter);
        if (c == '}') {
            return true;
        }
        for (;;) {
            // c is the opening quote of a member name
            int nameStart = CodegenAccess.head(iter);
            CodegenAccess.unreadByte(iter);
            iter.skip();
            int nameEnd = CodegenAccess.head(iter) - 1;
            CodegenAccess.nextToken(iter); // the colon
            int index = indexOfChild(children, seen, nameStart, nameEnd);
            if (index < 0) {
                iter.skip();
            } else {
                seen |= 1L << index;
                unseen--;
                readValue(children[index]);
                if (unseen == 0) {
                    return false;
                }
            }
            c = CodegenAccess.nextToken(iter);
            if (c == '}') {
                return true;
            }
            c = CodegenAccess.nextToken(iter); // after the comma: the next name's quote
        }
    }

    private void readValue(FieldPathTree.Node node) throws IOException {
        ValueType type = iter.whatIsNext();
        if (type == ValueType.OBJECT && node.children.length > 0) {
            CodegenAccess.nextToken(iter);
            if (!readObject(node)) {
                skipRestOfObject();
            }
            return;
        }
        int start = CodegenAccess.head(iter);
        iter.skip();
        if (type != ValueType.OBJECT && type != ValueType.ARRAY) {
            int end = CodegenAccess.head(iter);
            for (int slot : node.slots) {
                valueStart[slot] = start;
                valueEnd[slot] = end;
            }
        }
    }

    private void skipRestOfObject() throws IOException {
        while (CodegenAccess.nextToken(iter) == ',') {
            iter.skip(); // name
            CodegenAccess.nextToken(iter); // colon
            iter.skip(); // value
        }
    }

    private int indexOfChild(FieldPathTree.Node[] children, long seen, int nameStart, int nameEnd) {
        byte[] b = buf;
        int start = nameStart;
        int len = nameEnd - nameStart;
        if (lineHasEscapes && JsonStringDecoder.hasEscape(b, nameStart, nameEnd)) {
            len = keyDecoder.decode(b, nameStart, nameEnd);
            b = keyDecoder.buffer();
            start = 0;
        }
        for (int i = 0; i < children.length; i++) {
            byte[] name = children[i].name;
            if (name.length == len && (seen & (1L << i)) == 0 && sameBytes(name, b, start, len)) {
                return i;
            }
        }
        return -1;
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
}
