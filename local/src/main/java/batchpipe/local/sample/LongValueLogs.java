package batchpipe.local.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Random;

/**
 * Seeded JSON lines where a few long lines hold most of the bytes, as archives with stack traces,
 * request bodies and embedded documents do: about one line in {@value #LONG_EVERY} is 10-100 KB, with
 * long strings (escaped quotes, backslashes, newlines and tabs, backslash-u escapes including surrogate
 * pairs, raw non-ASCII UTF-8 of two, three and four bytes) and large arrays of numbers and strings; the
 * rest are ordinary short log lines. The long lines put {@code status} last, so a reader that wants it
 * must get past every long value. About one line in {@code malformedEvery} is spoiled
 * ({@link Malformations}).
 */
public final class LongValueLogs {
    static final int LONG_EVERY = 180;
    private static final String[] SERVICES = {"checkout", "catalog", "payments", "search", "auth", "inventory", "shipping"};
    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final int[] STATUSES = {200, 200, 200, 200, 200, 200, 201, 204, 304, 400, 404, 429, 500, 503};
    private static final String[] FRAMES = {"com.example.checkout.CartService.price", "com.example.db.Pool.borrow",
            "java.base/java.util.concurrent.ThreadPoolExecutor.runWorker", "org.eclipse.jetty.server.HttpChannel.handle",
            "com.fasterxml.jackson.databind.ObjectMapper.readValue", "software.amazon.awssdk.core.internal.http.pipeline.stages.RetryableStage.execute"};
    /** Pieces of a request body: words, escapes, and raw UTF-8 of every length. */
    private static final byte[][] BODY_PIECES = utf8("order ", "item ", "quantity ", "price ", "customer ", "address ",
            "\\\"quoted\\\" ", "C:\\\\temp\\\\file ", "line\\nbreak ", "tab\\there ", "caf\\u00e9 ", "\\ud83d\\ude00 ",
            "café ", "naïve ", "Grüße ", "日本語のテキスト ", "данные ", "😀 ", "🚚 ", "{\\\"k\\\":[1,2,3]} ", "/api/v1/orders/42 ");

    private static final byte[] TAG_END_ACCENTED = "-é\"".getBytes(StandardCharsets.UTF_8), TAG_END = {'"'};

    private final long seed;
    private final int malformedEvery;

    public LongValueLogs(long seed, int malformedEvery) {
        this.seed = seed;
        this.malformedEvery = malformedEvery;
    }

    public void write(int lines, OutputStream out) throws IOException {
        Random random = new Random(seed);
        LineBuffer line = new LineBuffer(out);
        long ts = 1_793_491_200_000L; // 2026-11-01T00:00:00Z
        for (int i = 0; i < lines; i++) {
            ts += random.nextInt(40);
            int start = line.position();
            if (random.nextInt(LONG_EVERY) == 0) {
                longLine(line, random, ts);
            } else {
                shortLine(line, random, ts);
            }
            if (malformedEvery > 0 && random.nextInt(malformedEvery) == 0) {
                Malformations.spoil(line, start, random);
            }
            line.endLine();
        }
        line.flush();
    }

    private static void shortLine(LineBuffer line, Random random, long ts) {
        int status = STATUSES[random.nextInt(STATUSES.length)];
        line.ascii("{\"ts\":").number(ts).ascii(",\"level\":\"").ascii(LEVELS[random.nextInt(LEVELS.length)])
                .ascii("\",\"service\":\"").ascii(SERVICES[random.nextInt(SERVICES.length)])
                .ascii("\",\"status\":").number(status).ascii(",\"latencyMs\":").number(random.nextInt(2_000))
                .ascii(",\"msg\":\"request served\",\"http\":{\"method\":\"GET\",\"path\":\"/api/v1/items/").number(random.nextInt(10_000))
                .ascii("\"},\"traceId\":\"").hex(random.nextLong(), 16).ascii("\"}");
    }

    private static void longLine(LineBuffer line, Random random, long ts) {
        int target = 10_000 + random.nextInt(90_001);
        int start = line.position();
        line.ascii("{\"ts\":").number(ts).ascii(",\"level\":\"").ascii(random.nextBoolean() ? "ERROR" : "WARN")
                .ascii("\",\"service\":\"").ascii(SERVICES[random.nextInt(SERVICES.length)])
                .ascii("\",\"msg\":\"unhandled exception\",\"stack\":\"java.lang.IllegalStateException: pool exhausted");
        while (line.position() - start < target / 4) {
            line.ascii("\\n\\tat ").ascii(FRAMES[random.nextInt(FRAMES.length)]).ascii("(").ascii("Source.java:").number(random.nextInt(900)).ascii(")");
        }
        line.ascii("\",\"request\":{\"method\":\"POST\",\"headers\":[[\"content-type\",\"application/json\"],[\"x-request-id\",\"")
                .hex(random.nextLong(), 16).ascii("\"]],\"body\":\"");
        while (line.position() - start < target * 7 / 10) {
            line.raw(BODY_PIECES[random.nextInt(BODY_PIECES.length)]);
        }
        line.ascii("\"},\"samples\":[");
        boolean first = true;
        while (line.position() - start < target * 9 / 10) {
            if (!first) line.b(',');
            first = false;
            if (random.nextInt(4) == 0) {
                line.b('-').number(random.nextInt(100_000)).b('.').number(random.nextInt(1000)).ascii("e-3");
            } else {
                line.number(random.nextInt(1_000_000));
            }
        }
        line.ascii("],\"tags\":[");
        first = true;
        while (line.position() - start < target) {
            if (!first) line.b(',');
            first = false;
            line.ascii("\"tag-").hex(random.nextInt(1 << 16), 4).raw(random.nextInt(8) == 0 ? TAG_END_ACCENTED : TAG_END);
        }
        line.ascii("],\"retry\":").ascii(random.nextBoolean() ? "true" : "false").ascii(",\"parent\":null,\"status\":")
                .number(random.nextBoolean() ? 500 : 503).b('}');
    }

    private static byte[][] utf8(String... pieces) {
        byte[][] bytes = new byte[pieces.length][];
        for (int i = 0; i < pieces.length; i++) bytes[i] = pieces[i].getBytes(StandardCharsets.UTF_8);
        return bytes;
    }
}
