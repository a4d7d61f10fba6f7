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
     * level, a status or a field name is all in it. One load when eight bytes of the array follow {@code off}
     * (a name or value inside a line always has them: at least its closing quote and the line's end follow),
     * else byte by byte.
     */
    static long headWord(byte[] b, int off, int len) {
        if (len >= 8) {
            return (long) LONG_LE.get(b, off);
        }
        if (b.length - off >= 8) {
            return (long) LONG_LE.get(b, off) & (1L << (len << 3)) - 1; // len < 8: the shift is below 64
        }
        long word = 0;
        for (int i = len - 1; i >= 0; i--) {
            word = word << 8 | (b[off + i] & 0xFF);
        }
        return word;
    }
}
