package batchpipe.local.sample;

import java.io.IOException;
import java.io.OutputStream;
import java.util.Random;

/**
 * Seeded tiny JSON events, all under 100 bytes ({@code {"t":...,"level":"INFO","status":200,"k":"3f"}}),
 * as metrics-like logs write them: per-line costs dominate, not per-byte ones. About one line in
 * {@code malformedEvery} is spoiled ({@link Malformations}).
 */
public final class NarrowLogs {
    private static final String[] LEVELS = {"INFO", "INFO", "INFO", "INFO", "INFO", "DEBUG", "WARN", "ERROR"};
    private static final int[] STATUSES = {200, 200, 200, 200, 200, 200, 201, 204, 304, 400, 404, 500};

    private final long seed;
    private final int malformedEvery;

    public NarrowLogs(long seed, int malformedEvery) {
        this.seed = seed;
        this.malformedEvery = malformedEvery;
    }

    public void write(int lines, OutputStream out) throws IOException {
        Random random = new Random(seed);
        LineBuffer line = new LineBuffer(out);
        long ts = 1_793_491_200_000L;
        for (int i = 0; i < lines; i++) {
            ts += random.nextInt(10);
            int start = line.position();
            line.ascii("{\"t\":").number(ts).ascii(",\"level\":\"").ascii(LEVELS[random.nextInt(LEVELS.length)])
                    .ascii("\",\"status\":").number(STATUSES[random.nextInt(STATUSES.length)]);
            if (random.nextBoolean()) line.ascii(",\"k\":\"").hex(random.nextInt(256), 2).b('"');
            line.b('}');
            if (malformedEvery > 0 && random.nextInt(malformedEvery) == 0) {
                Malformations.spoil(line, start, random);
            }
            line.endLine();
        }
        line.flush();
    }
}
