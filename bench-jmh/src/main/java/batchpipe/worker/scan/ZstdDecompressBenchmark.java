package batchpipe.worker.scan;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.util.concurrent.TimeUnit;

/**
 * Decompressing the zstd sample through zstd-jni's stream into one chunk-sized buffer, the way
 * {@link LogScanner} reads a zstd object: the floor under a scan on the reading thread, since every
 * byte is decompressed before it can be split or parsed.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
// zstd-jni loads native code; JDK 22+ warns on every start unless native access is granted.
@Fork(value = 1, jvmArgsAppend = "--enable-native-access=ALL-UNNAMED")
public class ZstdDecompressBenchmark {

    private byte[] compressed;
    private final byte[] chunk = new byte[ScanOptions.DEFAULT_CHUNK_BYTES];

    @Setup
    public void generate() {
        byte[] lines = SampleInput.plain(SampleInput.LINES);
        compressed = SampleInput.zstd(SampleInput.LINES);
        System.out.println(SampleInput.describe(lines, SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES))
                + String.format(", %,d bytes compressed", compressed.length));
    }

    /** Returns the uncompressed byte count. */
    @Benchmark
    public long decompress() throws IOException {
        long total = 0;
        try (ZstdInputStreamNoFinalizer in = new ZstdInputStreamNoFinalizer(new ByteArrayInputStream(compressed))) {
            int n;
            while ((n = in.read(chunk, 0, chunk.length)) >= 0) {
                total += n;
            }
        }
        return total;
    }
}
