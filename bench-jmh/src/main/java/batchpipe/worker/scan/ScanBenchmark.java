package batchpipe.worker.scan;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * The kernels together: {@link LogScanner#scan} of the sample held in memory, so decompression,
 * splitting, parsing on the pool and the in-order merge run as in a real scan, without S3 or disk.
 * For profiling where a whole scan's time goes (e.g. {@code -prof stack}); the parts are measured
 * alone by the other benchmarks.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// zstd-jni loads native code; JDK 22+ warns on every start unless native access is granted.
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ScanBenchmark {

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
