package batchpipe.local.sample;

import com.github.luben.zstd.ZstdOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.LocalDate;
import java.util.Random;

/**
 * Realistic, seeded JSON-lines application logs: the same seed gives the same bytes, so runs repeat
 * and figures compare. Levels, services, statuses and latencies follow skewed distributions like real
 * traffic, and about one line in {@code malformedEvery} is broken on purpose (truncated), because real
 * archives have such lines and the scan must count them.
 */
public final class SampleLogs {
    private static final String[] SERVICES = {"checkout", "catalog", "payments", "search", "auth", "inventory", "shipping"};
    private static final String[] METHODS = {"GET", "GET", "GET", "GET", "POST", "POST", "PUT", "DELETE"};
    private static final String[] PATHS = {"/api/v1/orders", "/api/v1/items", "/api/v1/cart", "/api/v1/users", "/api/v1/search", "/health"};
    private static final String[] MESSAGES = {"request served", "cache miss", "upstream slow", "retrying upstream call",
            "validation failed", "payment declined", "token refreshed", "query planned"};

    private static final long FIRST_TIMESTAMP = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();

    private final long seed;
    private final int malformedEvery;

    public SampleLogs(long seed, int malformedEvery) {
        this.seed = seed;
        this.malformedEvery = malformedEvery;
    }

    /** Object number {@code index} as zstd-compressed JSON lines. */
    public byte[] zstdObject(int index, int lines) throws IOException {
        ByteArrayOutputStream bytes = new ByteArrayOutputStream(lines * 40);
        try (ZstdOutputStream zstd = new ZstdOutputStream(bytes, 3)) {
            write(index, lines, zstd);
        }
        return bytes.toByteArray();
    }

    public void write(int index, int lines, OutputStream out) throws IOException {
        Random random = new Random(seed * 1_000_003L + index);
        long ts = FIRST_TIMESTAMP + index * 3_600_000L;
        // Lines are built as ASCII bytes in one buffer and handed on in 64 KiB pieces: a String and a
        // write per line, Instant.toString() and Double.toString() made generating the demo's objects
        // cost more than scanning them. The bytes are the same as those simpler calls gave (a test pins them).
        AsciiBuffer line = new AsciiBuffer(1 << 16, out);
        for (int i = 0; i < lines; i++) {
            ts += random.nextInt(40);
            int lineStart = line.position();
            // The random draws happen in this order for every line; changing it changes every object.
            int status = status(random);
            String level = status >= 500 ? "ERROR" : status >= 400 ? (random.nextInt(3) == 0 ? "ERROR" : "WARN") : level(random);
            String service = SERVICES[Math.min(SERVICES.length - 1, (int) Math.abs(random.nextGaussian() * 2.2))];
            line.append("{\"ts\":\"").appendInstant(ts).append("\",\"level\":\"").append(level)
                    .append("\",\"service\":\"").append(service).append("\",\"status\":").append(status)
                    .append(",\"latencyMs\":").appendTenths(Math.round(Math.exp(2.5 + random.nextGaussian() * 0.9) * 10))
                    .append(",\"msg\":\"").append(MESSAGES[random.nextInt(MESSAGES.length)])
                    .append("\",\"http\":{\"method\":\"").append(METHODS[random.nextInt(METHODS.length)])
                    .append("\",\"path\":\"").append(PATHS[random.nextInt(PATHS.length)]).append('/').append(random.nextInt(10_000))
                    .append("\",\"status\":").append(status)
                    .append("},\"user\":{\"id\":\"u-").append(random.nextInt(50_000)).append("\"},\"traceId\":\"")
                    .appendHex(random.nextLong()).append("\"}");
            if (malformedEvery > 0 && random.nextInt(malformedEvery) == 0) {
                line.truncate(lineStart + (line.position() - lineStart) / 2); // a line cut short, as a crashed writer leaves it
            }
            line.append('\n');
            line.flushIfFull();
        }
        line.flush();
    }

    static int status(Random random) {
        int r = random.nextInt(1000);
        if (r < 820) return 200;
        if (r < 870) return 201;
        if (r < 890) return 204;
        if (r < 905) return 304;
        if (r < 935) return 400;
        if (r < 945) return 401;
        if (r < 955) return 403;
        if (r < 975) return 404;
        if (r < 982) return 429;
        if (r < 994) return 500;
        if (r < 997) return 502;
        return 503;
    }

    static String level(Random random) {
        int r = random.nextInt(100);
        return r < 90 ? "INFO" : r < 97 ? "DEBUG" : "WARN";
    }

    /**
     * ASCII text built straight into bytes. Every value the generator writes is ASCII, so one byte per
     * char is exact; numbers and instants are formatted by hand as {@link Long#toString},
     * {@link Instant#toString} and {@link Double#toString} would print them.
     */
    private static final class AsciiBuffer {
        /** Room kept free for one line: the longest line is under 400 bytes. */
        private static final int LINE_ROOM = 1_024;
        private static final byte[] HEX = "0123456789abcdef".getBytes(StandardCharsets.US_ASCII);

        private final byte[] bytes;
        private final OutputStream out;
        private int position;
        private long cachedDay = Long.MIN_VALUE;
        private byte[] cachedDate;

        AsciiBuffer(int capacity, OutputStream out) {
            this.bytes = new byte[capacity + LINE_ROOM];
            this.out = out;
        }

        int position() {
            return position;
        }

        void truncate(int newPosition) {
            position = newPosition;
        }

        AsciiBuffer append(String ascii) {
            for (int i = 0, n = ascii.length(); i < n; i++) {
                bytes[position++] = (byte) ascii.charAt(i);
            }
            return this;
        }

        AsciiBuffer append(char c) {
            bytes[position++] = (byte) c;
            return this;
        }

        AsciiBuffer append(long value) {
            if (value < 0) {
                return append(Long.toString(value));
            }
            int digits = 1;
            for (long v = value; v >= 10; v /= 10) digits++;
            for (int i = position + digits - 1; i >= position; i--) {
                bytes[i] = (byte) ('0' + value % 10);
                value /= 10;
            }
            position += digits;
            return this;
        }

        /** {@code Double.toString(tenths / 10.0)}: for whole tenths below 10^7 that is "integer.digit". */
        AsciiBuffer appendTenths(long tenths) {
            if (tenths < 0 || tenths >= 100_000_000L) {
                return append(Double.toString(tenths / 10.0));
            }
            return append(tenths / 10).append('.').append((char) ('0' + tenths % 10));
        }

        /** {@code Long.toHexString}: lower case, no leading zeros. */
        AsciiBuffer appendHex(long value) {
            int digits = Math.max(1, (64 - Long.numberOfLeadingZeros(value) + 3) / 4);
            for (int i = position + digits - 1; i >= position; i--) {
                bytes[i] = HEX[(int) (value & 0xf)];
                value >>>= 4;
            }
            position += digits;
            return this;
        }

        /** {@code Instant.ofEpochMilli(millis).toString()} for years 1000 to 9999: the fraction only when not zero. */
        AsciiBuffer appendInstant(long epochMillis) {
            long day = Math.floorDiv(epochMillis, 86_400_000L);
            if (day != cachedDay) {
                cachedDay = day;
                cachedDate = (LocalDate.ofEpochDay(day) + "T").getBytes(StandardCharsets.US_ASCII);
            }
            System.arraycopy(cachedDate, 0, bytes, position, cachedDate.length);
            position += cachedDate.length;
            int millisOfDay = (int) Math.floorMod(epochMillis, 86_400_000L);
            int seconds = millisOfDay / 1000;
            twoDigits(seconds / 3600).append(':');
            twoDigits(seconds / 60 % 60).append(':');
            twoDigits(seconds % 60);
            int millis = millisOfDay % 1000;
            if (millis != 0) {
                append('.').append((char) ('0' + millis / 100)).append((char) ('0' + millis / 10 % 10)).append((char) ('0' + millis % 10));
            }
            return append('Z');
        }

        private AsciiBuffer twoDigits(int value) {
            return append((char) ('0' + value / 10)).append((char) ('0' + value % 10));
        }

        void flushIfFull() throws IOException {
            if (position >= bytes.length - LINE_ROOM) flush();
        }

        void flush() throws IOException {
            out.write(bytes, 0, position);
            position = 0;
        }
    }
}
