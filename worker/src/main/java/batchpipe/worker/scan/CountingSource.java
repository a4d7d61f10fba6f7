package batchpipe.worker.scan;

import java.io.IOException;
import java.io.InputStream;

/**
 * Wraps the caller's source: counts the bytes read from it, remembers the first IOException it threw
 * (so a failure surfacing from a decompressor can be told apart from corrupt data), replays the few
 * bytes peeked for format detection, and never closes the caller's stream.
 */
final class CountingSource extends InputStream {

    private final InputStream source;
    private final byte[] prefix;
    private int prefixPos;
    private int prefixLen;
    private long count;
    private IOException sourceFailure;

    CountingSource(InputStream source, int maxPeek) {
        this.source = source;
        this.prefix = new byte[maxPeek];
    }

    /** Reads up to {@code n} bytes ahead without consuming them; returns the buffer, valid up to {@link #peeked()}. */
    byte[] peek(int n) throws IOException {
        if (n > prefix.length || prefixPos != 0) {
            throw new IllegalStateException("peek only once, before reading, up to " + prefix.length + " bytes");
        }
        while (prefixLen < n) {
            int r = readSource(prefix, prefixLen, n - prefixLen);
            if (r < 0) {
                break;
            }
            prefixLen += r;
        }
        return prefix;
    }

    int peeked() {
        return prefixLen;
    }

    /** Bytes taken from the source so far. */
    long count() {
        return count;
    }

    /** The IOException the source threw, or null when it never failed. */
    IOException sourceFailure() {
        return sourceFailure;
    }

    @Override
    public int read() throws IOException {
        if (prefixPos < prefixLen) {
            return prefix[prefixPos++] & 0xFF;
        }
        byte[] one = new byte[1];
        int r = read(one, 0, 1);
        return r < 0 ? -1 : one[0] & 0xFF;
    }

    @Override
    public int read(byte[] b, int off, int len) throws IOException {
        if (len == 0) {
            return 0;
        }
        if (prefixPos < prefixLen) {
            int n = Math.min(len, prefixLen - prefixPos);
            System.arraycopy(prefix, prefixPos, b, off, n);
            prefixPos += n;
            return n;
        }
        return readSource(b, off, len);
    }

    private int readSource(byte[] b, int off, int len) throws IOException {
        int r;
        try {
            r = source.read(b, off, len);
        } catch (IOException e) {
            if (sourceFailure == null) {
                sourceFailure = e;
            }
            throw e;
        }
        if (r > 0) {
            count += r;
        }
        return r;
    }

    @Override
    public int available() throws IOException {
        if (prefixPos < prefixLen) {
            return prefixLen - prefixPos;
        }
        try {
            return source.available();
        } catch (IOException e) {
            if (sourceFailure == null) {
                sourceFailure = e;
            }
            throw e;
        }
    }

    /** The caller owns the source and closes it; decompressors closing this wrapper must not. */
    @Override
    public void close() {
    }
}
