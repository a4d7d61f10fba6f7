package batchpipe.local.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/** Lines built as bytes in one growing buffer and handed on in large writes: no String per line. */
final class LineBuffer {
    private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);
    private static final int FLUSH_AT = 1 << 16;

    private final OutputStream out;
    private byte[] bytes = new byte[FLUSH_AT * 4];
    private int position;

    LineBuffer(OutputStream out) {
        this.out = out;
    }

    int position() {
        return position;
    }

    byte byteAt(int index) {
        return bytes[index];
    }

    void set(int index, byte value) {
        bytes[index] = value;
    }

    void truncate(int newPosition) {
        position = newPosition;
    }

    private void room(int n) {
        if (position + n > bytes.length) bytes = Arrays.copyOf(bytes, Math.max(bytes.length * 2, position + n));
    }

    LineBuffer ascii(String s) {
        room(s.length());
        for (int i = 0, n = s.length(); i < n; i++) bytes[position++] = (byte) s.charAt(i);
        return this;
    }

    LineBuffer raw(byte[] b) {
        room(b.length);
        System.arraycopy(b, 0, bytes, position, b.length);
        position += b.length;
        return this;
    }

    LineBuffer b(int c) {
        room(1);
        bytes[position++] = (byte) c;
        return this;
    }

    LineBuffer number(long value) {
        return ascii(Long.toString(value));
    }

    LineBuffer hex(long value, int digits) {
        room(digits);
        for (int i = position + digits - 1; i >= position; i--) {
            bytes[i] = HEX[(int) (value & 0xf)];
            value >>>= 4;
        }
        position += digits;
        return this;
    }

    /** Ends the line and writes out what has gathered once it is large. */
    void endLine() throws IOException {
        b('\n');
        if (position >= FLUSH_AT) flush();
    }

    void flush() throws IOException {
        out.write(bytes, 0, position);
        position = 0;
    }
}
