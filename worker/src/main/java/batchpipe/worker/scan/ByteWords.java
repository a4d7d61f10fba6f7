package batchpipe.worker.scan;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/** Byte strings read eight bytes at a time, so that short keys and names compare and hash in one step. */
final class ByteWords {

    private static final VarHandle LONG_LE = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);

    private ByteWords() {
    }

    /**
     * The first eight bytes of {@code b[off, off + len)} as a little-endian word, zero past {@code len}: a
     * level, a status or a field name is all in it. One load when eight bytes of the array follow {@code off},
     * as they do for a name or value inside a line (its closing quote and the rest of the line follow, in a
     * chunk buffer of a MiB); {@link #headWordNearTheEnd} otherwise.
     */
    static long headWord(byte[] b, int off, int len) {
        if (b.length - off >= 8) {
            long word = (long) LONG_LE.get(b, off);
            return len >= 8 ? word : word & (1L << (len << 3)) - 1; // len < 8: the shift is below 64
        }
        // Rare in a scan, so a method of its own: the compiled scanner holds a call here, not a byte loop.
        // (With the loop here and the priming's keys in arrays of their own, C2's loop-limit check in it
        // trapped in two scans of three: -Xlog:deoptimization, loop_limit_check in headWord; none since.)
        return headWordNearTheEnd(b, off, len);
    }

    /** {@link #headWord} where fewer than eight bytes of the array follow {@code off}, so {@code len < 8}. */
    private static long headWordNearTheEnd(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        if (off + len >= 8) {
            // the word that ends where the key ends, shifted down past the bytes before the key
            return (long) LONG_LE.get(b, off + len - 8) >>> (64 - (len << 3));
        }
        long word = 0; // an array of fewer than eight bytes: a requested name, a test's key
        for (int i = len - 1; i >= 0; i--) {
            word = word << 8 | (b[off + i] & 0xFF);
        }
        return word;
    }
}
