package batchpipe.worker.scan;

import static batchpipe.worker.scan.ScanFixtures.mixedLog;
import static batchpipe.worker.scan.ScanFixtures.scan;
import static batchpipe.worker.scan.ScanFixtures.trickle;
import static batchpipe.worker.scan.ScanFixtures.utf8;
import static batchpipe.worker.scan.ScanFixtures.zstd;
import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ForkJoinPool;
import org.junit.jupiter.api.Test;

/** Rule 7: chunks are tallied in parallel and merged in order; the result never depends on the pool. */
class ParallelChunkingTest {

    private static final ScanOptions SMALL_CHUNKS = ScanOptions.defaults()
            .withCountBy(List.of("level", "status", "http.status", "user.id"))
            .withMatch(new Match.Contains("orders/1"))
            .withChunkBytes(1000)
            .withMaxLineBytes(600);

    /** Lines of every kind, with malformed ones at many offsets relative to 1000-byte chunk boundaries. */
    private static byte[] boundaryLog() {
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 6000; i++) {
            switch (i % 13) {
                case 0 -> sb.append("{\"level\":\"WARN\",\"cut\":").append("x".repeat(i % 90));
                case 5 -> sb.append("{\"level\":\"INFO\",\"pad\":\"").append("y".repeat(i % 700)).append("\"}");
                case 7 -> sb.append(" ".repeat(i % 5));
                case 9 -> sb.append("{\"level\":\"E\\u0052ROR\",\"n\":").append(i).append("}\r");
                default -> sb.append(ScanFixtures.eventLine(i));
            }
            sb.append('\n');
        }
        return utf8(sb.toString());
    }

    @Test
    void scan_givesIdenticalResultsForOneAndEightThreads() throws IOException {
        byte[] log = boundaryLog();
        ScanResult one = scan(log, SMALL_CHUNKS, 1);
        ScanResult eight = scan(log, SMALL_CHUNKS, 8);
        assertThat(eight).isEqualTo(one);
        assertThat(eight.toJson()).isEqualTo(one.toJson());
        assertThat(one.malformed()).isGreaterThan(ScanResult.MAX_MALFORMED_LINES);
        assertThat(one.oversizedLines()).isPositive();
        assertThat(scan(zstd(log), SMALL_CHUNKS, 8).countBy()).isEqualTo(one.countBy());
    }

    @Test
    void scan_givesTheSameResultForAnyChunkSize() throws IOException {
        byte[] log = boundaryLog();
        ScanResult reference = scan(log, SMALL_CHUNKS.withChunkBytes(1 << 20), 2);
        for (int chunk : new int[] {64, 97, 600, 601, 602, 1000, 4096, 65536}) {
            assertThat(scan(log, SMALL_CHUNKS.withChunkBytes(chunk), 3)).as("chunkBytes %d", chunk)
                    .isEqualTo(reference);
        }
    }

    @Test
    void scan_countsApproximatelyPastTheBudgetAndTheSameForOneAndEightThreads() throws IOException {
        // 150,000 distinct user ids, and one user in every tenth line
        StringBuilder sb = new StringBuilder();
        int lines = 150_000;
        for (int i = 0; i < lines; i++) {
            String user = i % 10 == 0 ? "u-busy" : "u-" + i;
            sb.append("{\"level\":\"INFO\",\"user\":{\"id\":\"").append(user).append("\"}}\n");
        }
        byte[] log = utf8(sb.toString());
        ScanOptions options = ScanOptions.defaults().withCountBy(List.of("level", "user.id")).withChunkBytes(64 << 10);

        ScanResult one = scan(log, options, 1);
        ScanResult eight = scan(log, options, 8);

        assertThat(eight).isEqualTo(one);
        assertThat(one.approximate()).containsOnlyKeys("user.id");
        assertThat(one.countBy().get("level")).containsExactly(Map.entry("INFO", (long) lines));
        ApproximateCounts users = one.approximate().get("user.id");
        assertThat(users.events()).isEqualTo(lines);
        assertThat(users.distinctEstimate()).isBetween(135_000L * 975 / 1000, 135_001L * 1025 / 1000);
        long busy = one.countBy().get("user.id").get("u-busy");
        assertThat(lines / 10L).isBetween(busy - users.overCounts().get("u-busy"), busy);
        assertThat(one.countBy().get("user.id")).hasSizeLessThanOrEqualTo(BoundedValueCounts.SKETCH_COUNTERS);
    }

    @Test
    void scan_numbersMalformedLinesGloballyAcrossChunks() throws IOException {
        StringBuilder sb = new StringBuilder();
        List<Long> expected = new ArrayList<>();
        for (int i = 1; i <= 3000; i++) {
            if (i % 301 == 0) {
                sb.append("{\"broken\":");
                if (expected.size() < ScanResult.MAX_MALFORMED_LINES) {
                    expected.add((long) i);
                }
            } else {
                sb.append(i % 2 == 0 ? "" : ScanFixtures.eventLine(i));
            }
            sb.append('\n');
        }
        ScanResult r = scan(utf8(sb.toString()), SMALL_CHUNKS.withChunkBytes(256), 4);
        assertThat(r.malformedLines()).isEqualTo(expected);
        assertThat(r.malformed()).isEqualTo(9);
    }

    @Test
    void scan_readsSourcesThatDeliverFewBytesPerRead() throws IOException {
        byte[] log = boundaryLog();
        ScanResult reference = scan(log, SMALL_CHUNKS, 2);
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            assertThat(new LogScanner(pool).scan(trickle(log, 13), SMALL_CHUNKS)).isEqualTo(reference);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void scan_stillWorksWhenThePoolIsShutDown() throws IOException {
        byte[] log = mixedLog(3000, 40);
        ScanResult reference = scan(log, SMALL_CHUNKS, 2);
        ForkJoinPool pool = new ForkJoinPool(2);
        pool.shutdown();
        assertThat(new LogScanner(pool).scan(new ByteArrayInputStream(log), SMALL_CHUNKS)).isEqualTo(reference);
    }

    @Test
    void scan_canBeCalledConcurrentlyOnOnePool() throws Exception {
        byte[] log = boundaryLog();
        ScanResult reference = scan(log, SMALL_CHUNKS, 1);
        ForkJoinPool pool = new ForkJoinPool(2);
        try {
            LogScanner scanner = new LogScanner(pool);
            List<Thread> callers = new ArrayList<>();
            List<ScanResult> results = Collections.synchronizedList(new ArrayList<>());
            for (int i = 0; i < 4; i++) {
                Thread t = new Thread(() -> {
                    try {
                        results.add(scanner.scan(new ByteArrayInputStream(log), SMALL_CHUNKS));
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                });
                callers.add(t);
                t.start();
            }
            for (Thread t : callers) {
                t.join();
            }
            assertThat(results).hasSize(4).allSatisfy(r -> assertThat(r).isEqualTo(reference));
        } finally {
            pool.shutdownNow();
        }
    }
}
