package batchpipe.worker.scan;

import com.github.luben.zstd.Zstd;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ForkJoinPool;
import java.util.zip.GZIPOutputStream;

/** Inputs and one-call scans shared by the scanner tests. */
final class ScanFixtures {

    private ScanFixtures() {
    }

    static final ScanOptions NO_COUNTS = ScanOptions.defaults().withCountBy(List.of());

    static ScanResult scan(String text, ScanOptions options) throws IOException {
        return scan(utf8(text), options, 2);
    }

    static ScanResult scan(byte[] bytes, ScanOptions options) throws IOException {
        return scan(bytes, options, 2);
    }

    static ScanResult scan(byte[] bytes, ScanOptions options, int threads) throws IOException {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return new LogScanner(pool).scan(new ByteArrayInputStream(bytes), options);
        } finally {
            pool.shutdownNow();
        }
    }

    static ScanResult scan(InputStream in, ScanOptions options, int threads) throws IOException {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return new LogScanner(pool).scan(in, options);
        } finally {
            pool.shutdownNow();
        }
    }

    static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    static byte[] zstd(byte[] plain) {
        return Zstd.compress(plain, 3);
    }

    static byte[] gzip(byte[] plain) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (GZIPOutputStream gz = new GZIPOutputStream(out)) {
            gz.write(plain);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return out.toByteArray();
    }

    /** A realistic event; {@code i} varies level, status and path. */
    static String eventLine(int i) {
        String level = switch (i % 10) {
            case 0 -> "ERROR";
            case 1, 2 -> "WARN";
            default -> "INFO";
        };
        int status = i % 7 == 0 ? 500 : 200;
        return "{\"ts\":\"2026-11-30T01:02:03.456Z\",\"level\":\"" + level + "\",\"service\":\"checkout\",\"status\":"
                + status + ",\"latencyMs\":12.5,\"msg\":\"request served\",\"http\":{\"method\":\"GET\","
                + "\"path\":\"/api/v1/orders/" + i + "\",\"status\":" + status + "},\"user\":{\"id\":\"u-" + i + "\"}}";
    }

    /** Many lines: mostly events, a malformed line every {@code malformedEvery} lines, some blank and CRLF. */
    static byte[] mixedLog(int lines, int malformedEvery) {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= lines; i++) {
            if (i % malformedEvery == 0) {
                sb.append("{\"level\":\"INFO\",\"status\":200 garbage");
            } else if (i % 97 == 0) {
                sb.append("   ");
            } else {
                sb.append(eventLine(i));
            }
            sb.append(i % 5 == 0 ? "\r\n" : "\n");
        }
        return utf8(sb.toString());
    }

    /** A source that delivers at most {@code maxRead} bytes per read and reports nothing available. */
    static InputStream trickle(byte[] bytes, int maxRead) {
        return new InputStream() {
            private int pos;

            @Override
            public int read() {
                return pos < bytes.length ? bytes[pos++] & 0xFF : -1;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                if (len == 0) {
                    return 0;
                }
                if (pos >= bytes.length) {
                    return -1;
                }
                int n = Math.min(Math.min(len, maxRead), bytes.length - pos);
                System.arraycopy(bytes, pos, b, off, n);
                pos += n;
                return n;
            }

            @Override
            public int available() {
                return 0;
            }
        };
    }

    /** A source that delivers {@code prefix} and then throws {@code failure}. */
    static InputStream failingAfter(byte[] prefix, IOException failure) {
        return new InputStream() {
            private int pos;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (pos >= prefix.length) {
                    throw failure;
                }
                int n = Math.min(len, prefix.length - pos);
                System.arraycopy(prefix, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }
}
