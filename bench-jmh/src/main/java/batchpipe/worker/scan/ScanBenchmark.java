package batchpipe.worker.scan;

import batchpipe.worker.benchmark.NativeMillisecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.TearDown;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.ForkJoinPool;

/**
 * The kernels together: {@link LogScanner#scan} of the sample held in memory, so decompression,
 * splitting, parsing on the pool and the in-order merge run as in a real scan, without S3 or disk.
 * For profiling where a whole scan's time goes (e.g. {@code -prof stack}); the parts are measured
 * alone by the other benchmarks.
 */
public class ScanBenchmark extends NativeMillisecondsPerOperation {

    @Param({"zstd", "plain"})
    public String format;

    /** Pool threads; the reading thread also parses chunks when no buffer is free. */
    @Param({"1"})
    public int workers;

    private byte[] object;
    private ForkJoinPool pool;
    private LogScanner scanner;
    private final ScanOptions options = ScanOptions.defaults();

    @Setup
    public void generate() {
        byte[] lines = SampleInput.plain(SampleInput.LINES);
        object = switch (format) {
            case "zstd" -> SampleInput.zstd(SampleInput.LINES);
            case "plain" -> lines;
            default -> throw new IllegalArgumentException("format must be zstd or plain, was " + format);
        };
        pool = new ForkJoinPool(workers);
        scanner = new LogScanner(pool);
        System.out.println(SampleInput.describe(lines, SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES)));
    }

    @TearDown
    public void stopPool() {
        pool.shutdownNow();
    }

    @Benchmark
    public ScanResult scan() throws IOException {
        return scanner.scan(new ByteArrayInputStream(object), options);
    }
}
