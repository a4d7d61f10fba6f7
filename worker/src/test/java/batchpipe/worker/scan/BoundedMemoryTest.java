package batchpipe.worker.scan;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.SequenceInputStream;
import java.lang.management.ManagementFactory;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.ForkJoinWorkerThread;
import org.junit.jupiter.api.Test;

/**
 * Rule 1: memory stays bounded by the chunk buffers and one line buffer, whatever the object's size. (The
 * countBy totals are bounded too, however many distinct values there are: {@link BoundedValueCountsTest}.)
 * Measured as bytes allocated by the calling thread and every pool thread during the scan (cumulative,
 * so any per-line allocation or buffering of the object would show).
 */
class BoundedMemoryTest {

    private static final int THREADS = 2;
    private static final int CHUNK = 256 << 10;
    private static final int MAX_LINE = 64 << 10;
    private static final ScanOptions OPTIONS = ScanOptions.defaults().withChunkBytes(CHUNK)
            .withMaxLineBytes(MAX_LINE).withMatch(new Match.FieldEquals("http.status", "500"));
    /** The buffers of the design, plus room for per-chunk tallies, parsers and the JIT's own noise. */
    private static final long BOUND = (THREADS + 2L) * CHUNK + MAX_LINE + (6L << 20);

    private record Measured(ScanResult result, long allocatedBytes) {
    }

    private static Measured scanMeasuringAllocation(InputStream source) throws IOException {
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        List<Thread> poolThreads = new CopyOnWriteArrayList<>();
        ForkJoinPool pool = new ForkJoinPool(THREADS, p -> {
            ForkJoinWorkerThread t = ForkJoinPool.defaultForkJoinWorkerThreadFactory.newThread(p);
            poolThreads.add(t);
            return t;
        }, null, false);
        try {
            LogScanner scanner = new LogScanner(pool);
            scanner.scan(new RepeatingLines(List.of("{}"), 1 << 20), OPTIONS); // start threads, load classes
            long[] before = new long[THREADS + 1];
            for (int i = 0; i < poolThreads.size(); i++) {
                before[i] = threads.getThreadAllocatedBytes(poolThreads.get(i).threadId());
            }
            long callerBefore = threads.getCurrentThreadAllocatedBytes();
            ScanResult result = scanner.scan(source, OPTIONS);
            long allocated = threads.getCurrentThreadAllocatedBytes() - callerBefore;
            for (int i = 0; i < poolThreads.size(); i++) {
                allocated += threads.getThreadAllocatedBytes(poolThreads.get(i).threadId()) - before[i];
            }
            return new Measured(result, allocated);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void scan_allocatesBoundedMemoryWhateverTheObjectSize() throws IOException {
        List<String> lines = List.of(ScanFixtures.eventLine(1), ScanFixtures.eventLine(7), "not json",
                ScanFixtures.eventLine(10), "");
        Measured small = scanMeasuringAllocation(new RepeatingLines(lines, 16L << 20));
        Measured large = scanMeasuringAllocation(new RepeatingLines(lines, 160L << 20));
        assertThat(large.result().bytes()).isEqualTo(160L << 20);
        assertThat(large.result().events()).isGreaterThan(700_000);
        assertThat(large.allocatedBytes()).as("allocated while scanning 160 MiB").isLessThan(BOUND);
        assertThat(large.allocatedBytes() - small.allocatedBytes()).as("growth from 16 to 160 MiB")
                .isLessThan(4L << 20);
    }

    @Test
    void scan_skipsAFiftyMegabyteLineWithoutBufferingIt() throws IOException {
        String event = ScanFixtures.eventLine(3);
        InputStream source = new SequenceInputStream(
                new ByteArrayInputStream((event + "\n{\"huge\":\"").getBytes(StandardCharsets.UTF_8)),
                new SequenceInputStream(new RepeatingLines(List.of("x".repeat(1000)), 50L << 20, false),
                        new ByteArrayInputStream(("\"}\n" + event + "\n").getBytes(StandardCharsets.UTF_8))));
        Measured m = scanMeasuringAllocation(source);
        assertThat(m.result().events()).isEqualTo(2);
        assertThat(m.result().oversizedLines()).isEqualTo(1);
        assertThat(m.result().malformed()).isEqualTo(1);
        assertThat(m.result().malformedLines()).containsExactly(2L);
        assertThat(m.allocatedBytes()).as("allocated while skipping a 50 MiB line").isLessThan(BOUND);
    }

    @Test
    void scanInBatches_keepsABatchPerThreadAndTwoChunksForTheReader() throws IOException {
        // An in-memory source outruns two parsing threads, so the reader takes every buffer it is allowed
        int chunksPerTask = 4;
        ForkJoinPool pool = new ForkJoinPool(THREADS);
        try {
            ScanRun run = new ScanRun(pool, OPTIONS, chunksPerTask);
            List<String> lines = List.of(ScanFixtures.eventLine(1), ScanFixtures.eventLine(7), "not json");
            run.readAll(new RepeatingLines(lines, 64L << 20), (e, offset) -> e);
            ScanResult result = run.finish(64L << 20);
            assertThat(result.bytes()).isEqualTo(64L << 20);
            assertThat(run.buffersCreated()).as("chunk buffers of a 64 MiB scan, %d threads, batches of %d",
                    THREADS, chunksPerTask).isEqualTo(THREADS * chunksPerTask + 2);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Generates {@code total} bytes by repeating lines, without holding them. */
    static final class RepeatingLines extends InputStream {
        private final byte[] pattern;
        private final long total;
        private long produced;

        RepeatingLines(List<String> lines, long total) {
            this(lines, total, true);
        }

        RepeatingLines(List<String> lines, long total, boolean newlines) {
            String joined = newlines ? String.join("\n", lines) + "\n" : String.join("", lines);
            this.pattern = joined.getBytes(StandardCharsets.UTF_8);
            this.total = total;
        }

        @Override
        public int read() {
            if (produced >= total) {
                return -1;
            }
            return pattern[(int) (produced++ % pattern.length)] & 0xFF;
        }

        @Override
        public int read(byte[] b, int off, int len) {
            if (len == 0) {
                return 0;
            }
            if (produced >= total) {
                return -1;
            }
            int n = (int) Math.min(len, total - produced);
            for (int i = 0; i < n; ) {
                int at = (int) (produced % pattern.length);
                int run = Math.min(n - i, pattern.length - at);
                System.arraycopy(pattern, at, b, off + i, run);
                i += run;
                produced += run;
            }
            return n;
        }
    }
}
