package batchpipe.local.sample;

import com.github.luben.zstd.ZstdOutputStream;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
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
        long ts = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli() + index * 3_600_000L;
        StringBuilder line = new StringBuilder(320);
        for (int i = 0; i < lines; i++) {
            ts += random.nextInt(40);
            line.setLength(0);
            int status = status(random);
            String level = status >= 500 ? "ERROR" : status >= 400 ? (random.nextInt(3) == 0 ? "ERROR" : "WARN") : level(random);
            String service = SERVICES[Math.min(SERVICES.length - 1, (int) Math.abs(random.nextGaussian() * 2.2))];
            line.append("{\"ts\":\"").append(Instant.ofEpochMilli(ts)).append("\",\"level\":\"").append(level)
                    .append("\",\"service\":\"").append(service).append("\",\"status\":").append(status)
                    .append(",\"latencyMs\":").append(Math.round(Math.exp(2.5 + random.nextGaussian() * 0.9) * 10) / 10.0)
                    .append(",\"msg\":\"").append(MESSAGES[random.nextInt(MESSAGES.length)])
                    .append("\",\"http\":{\"method\":\"").append(METHODS[random.nextInt(METHODS.length)])
                    .append("\",\"path\":\"").append(PATHS[random.nextInt(PATHS.length)]).append('/').append(random.nextInt(10_000))
                    .append("\",\"status\":").append(status)
                    .append("},\"user\":{\"id\":\"u-").append(random.nextInt(50_000)).append("\"},\"traceId\":\"")
                    .append(Long.toHexString(random.nextLong())).append("\"}");
            if (malformedEvery > 0 && random.nextInt(malformedEvery) == 0) {
                line.setLength(line.length() / 2); // a line cut short, as a crashed writer leaves it
            }
            line.append('\n');
            out.write(line.toString().getBytes(StandardCharsets.UTF_8));
        }
    }

    private static int status(Random random) {
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

    private static String level(Random random) {
        int r = random.nextInt(100);
        return r < 90 ? "INFO" : r < 97 ? "DEBUG" : "WARN";
    }
}
