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

    private static ScanResult scanInBatches(java.io.InputStream in, ScanOptions options, int threads, int chunksPerTask)
            throws IOException {
        ForkJoinPool pool = new ForkJoinPool(threads);
        try {
            return new LogScanner(pool, chunksPerTask).scan(in, options);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void scan_givesIdenticalResultsWhateverTheChunksPerTask_approximateCountsIncluded() throws IOException {
        // every kind of line across 1000-byte chunk boundaries, long and oversized lines (tallied by the reader
        // between batches) among them
        byte[] log = boundaryLog();
        ScanResult reference = scan(log, SMALL_CHUNKS, 1);
        for (int chunksPerTask : new int[] {2, 3, LogScanner.CLI_CHUNKS_PER_TASK, 7}) {
            for (int threads : new int[] {1, 2, 8}) {
                assertThat(scanInBatches(new ByteArrayInputStream(log), SMALL_CHUNKS, threads, chunksPerTask))
                        .as("%d chunks per task, %d threads", chunksPerTask, threads).isEqualTo(reference);
            }
            assertThat(scanInBatches(trickle(log, 13), SMALL_CHUNKS, 2, chunksPerTask)).isEqualTo(reference);
            assertThat(scanInBatches(new ByteArrayInputStream(zstd(log)), SMALL_CHUNKS, 2, chunksPerTask).countBy())
                    .isEqualTo(reference.countBy());
        }
        // lines longer than a chunk, which the reader tallies itself (parsed, or skipped when oversized),
        // between chunks still waiting in a batch
        StringBuilder longLines = new StringBuilder();
        for (int i = 1; i <= 400; i++) {
            int pad = switch (i % 7) {
                case 0 -> 1200 + i;
                case 3 -> 4000 + i;
                default -> i % 300;
            };
            longLines.append("{\"level\":\"").append(i % 2 == 0 ? "INFO" : "WARN").append("\",\"status\":")
                    .append(200 + i % 3).append(",\"pad\":\"").append("z".repeat(pad)).append("\"}\n");
        }
        byte[] longLog = utf8(longLines.toString());
        ScanOptions longLineOptions = SMALL_CHUNKS.withMaxLineBytes(3000);
        ScanResult longReference = scan(longLog, longLineOptions, 1);
        assertThat(longReference.oversizedLines()).isPositive();
        assertThat(longReference.events()).isGreaterThan(300);
        for (int chunksPerTask : new int[] {2, LogScanner.CLI_CHUNKS_PER_TASK}) {
            assertThat(scanInBatches(new ByteArrayInputStream(longLog), longLineOptions, 2, chunksPerTask))
                    .isEqualTo(longReference);
            assertThat(scanInBatches(trickle(longLog, 7), longLineOptions, 2, chunksPerTask)).isEqualTo(longReference);
        }

        // a sketch's figures depend on how tallies are cut, never on how they are handed to the pool
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 150_000; i++) {
            sb.append("{\"user\":{\"id\":\"").append(i % 10 == 0 ? "u-busy" : "u-" + i).append("\"}}\n");
        }
        byte[] users = utf8(sb.toString());
        ScanOptions options = ScanOptions.defaults().withCountBy(List.of("user.id")).withChunkBytes(64 << 10);
        ScanResult approximate = scan(users, options, 2);
        assertThat(approximate.approximate()).containsOnlyKeys("user.id");
        assertThat(scanInBatches(new ByteArrayInputStream(users), options, 2, LogScanner.CLI_CHUNKS_PER_TASK))
                .isEqualTo(approximate);
    }

    @Test
    void logScanner_refusesFewerThanOneChunkPerTask() {
        org.assertj.core.api.Assertions.assertThatIllegalArgumentException()
                .isThrownBy(() -> new LogScanner(ForkJoinPool.commonPool(), 0))
                .withMessage("chunksPerTask must be at least 1, was 0");
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
    void scan_numbersLinesExactlyAcrossTheLineLoopsCallsWithinOneChunk() throws IOException {
        // one chunk of 1,000 lines, read LINES_PER_CALL lines per call: malformed lines on each side of every
        // call's boundary keep their numbers, and a last line without a newline still counts
        int perCall = ChunkParser.LINES_PER_CALL;
        List<Long> expected = new ArrayList<>();
        StringBuilder sb = new StringBuilder();
        for (int i = 1; i <= 1000; i++) {
            boolean broken = i % perCall == 0 || i % perCall == 1;
            if (broken && expected.size() < ScanResult.MAX_MALFORMED_LINES) {
                expected.add((long) i);
            }
            sb.append(broken ? "{\"broken\":" : ScanFixtures.eventLine(i));
            if (i < 1000) {
                sb.append('\n');
            }
        }
        ScanResult r = scan(utf8(sb.toString()), SMALL_CHUNKS.withChunkBytes(1 << 20).withMaxLineBytes(1 << 10), 2);
        assertThat(r.malformedLines()).isEqualTo(expected);
        long brokenLines = java.util.stream.IntStream.rangeClosed(1, 1000).filter(i -> i % perCall <= 1).count();
        assertThat(r.malformed()).isEqualTo(brokenLines);
        assertThat(r.events()).isEqualTo(1000 - brokenLines);
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
    void scan_stillWorksWhenThePoolIsShutDown_oneChunkOrABatchPerTask() throws IOException {
        byte[] log = mixedLog(3000, 40);
        ScanResult reference = scan(log, SMALL_CHUNKS, 2);
        ForkJoinPool pool = new ForkJoinPool(2);
        pool.shutdown();
        for (int chunksPerTask : new int[] {1, 3}) { // the reader runs every task itself
            assertThat(new LogScanner(pool, chunksPerTask).scan(new ByteArrayInputStream(log), SMALL_CHUNKS))
                    .as("%d chunks per task", chunksPerTask).isEqualTo(reference);
        }
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
