package batchpipe.local.sample;

import com.github.luben.zstd.Zstd;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.Random;

import static org.assertj.core.api.Assertions.assertThat;

class SampleLogsTest {

    @ParameterizedTest
    @CsvSource({"42, 0, 2000", "42, 7, 2000", "7, 3, 0", "1, 0, 5"})
    void writesTheSameBytesAsTheStraightforwardStringFormatting(long seed, int index, int malformedEvery) throws IOException {
        ByteArrayOutputStream fast = new ByteArrayOutputStream();
        new SampleLogs(seed, malformedEvery).write(index, 60_000, fast);

        assertThat(fast.toByteArray()).isEqualTo(straightforward(seed, index, 60_000, malformedEvery));
    }

    @Test
    void zstdObjectDecompressesToTheWrittenLines() throws IOException {
        SampleLogs logs = new SampleLogs(42, 2_000);
        ByteArrayOutputStream plain = new ByteArrayOutputStream();
        logs.write(3, 5_000, plain);

        byte[] object = logs.zstdObject(3, 5_000);

        assertThat(Zstd.decompress(object, plain.size())).isEqualTo(plain.toByteArray());
    }

    @Test
    void sameSeedGivesSameObject() throws IOException {
        assertThat(new SampleLogs(9, 2_000).zstdObject(1, 3_000)).isEqualTo(new SampleLogs(9, 2_000).zstdObject(1, 3_000));
        assertThat(new SampleLogs(9, 2_000).zstdObject(1, 3_000)).isNotEqualTo(new SampleLogs(10, 2_000).zstdObject(1, 3_000));
    }

    /**
     * The generator as first written (sharing only the status and level distributions), with Instant.toString(), Double.toString() and a String per line:
     * the oracle that keeps seeded objects byte-identical across the rewrite for speed.
     */
    private static byte[] straightforward(long seed, int index, int lines, int malformedEvery) {
        String[] services = {"checkout", "catalog", "payments", "search", "auth", "inventory", "shipping"};
        String[] methods = {"GET", "GET", "GET", "GET", "POST", "POST", "PUT", "DELETE"};
        String[] paths = {"/api/v1/orders", "/api/v1/items", "/api/v1/cart", "/api/v1/users", "/api/v1/search", "/health"};
        String[] messages = {"request served", "cache miss", "upstream slow", "retrying upstream call",
                "validation failed", "payment declined", "token refreshed", "query planned"};
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Random random = new Random(seed * 1_000_003L + index);
        long ts = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli() + index * 3_600_000L;
        StringBuilder line = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            ts += random.nextInt(40);
            line.setLength(0);
            int status = SampleLogs.status(random);
            String level = status >= 500 ? "ERROR" : status >= 400 ? (random.nextInt(3) == 0 ? "ERROR" : "WARN") : SampleLogs.level(random);
            String service = services[Math.min(services.length - 1, (int) Math.abs(random.nextGaussian() * 2.2))];
            line.append("{\"ts\":\"").append(Instant.ofEpochMilli(ts)).append("\",\"level\":\"").append(level)
                    .append("\",\"service\":\"").append(service).append("\",\"status\":").append(status)
                    .append(",\"latencyMs\":").append(Math.round(Math.exp(2.5 + random.nextGaussian() * 0.9) * 10) / 10.0)
                    .append(",\"msg\":\"").append(messages[random.nextInt(messages.length)])
                    .append("\",\"http\":{\"method\":\"").append(methods[random.nextInt(methods.length)])
                    .append("\",\"path\":\"").append(paths[random.nextInt(paths.length)]).append('/').append(random.nextInt(10_000))
                    .append("\",\"status\":").append(status)
                    .append("},\"user\":{\"id\":\"u-").append(random.nextInt(50_000)).append("\"},\"traceId\":\"")
                    .append(Long.toHexString(random.nextLong())).append("\"}");
            if (malformedEvery > 0 && random.nextInt(malformedEvery) == 0) {
                line.setLength(line.length() / 2);
            }
            line.append('\n');
            out.writeBytes(line.toString().getBytes(StandardCharsets.UTF_8));
        }
        return out.toByteArray();
    }
}
