package batchpipe.worker.scan;

import batchpipe.worker.benchmark.NativeMillisecondsPerOperation;
import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;

import java.io.ByteArrayInputStream;
import java.io.IOException;

/**
 * Decompressing the zstd sample through zstd-jni's stream into one chunk-sized buffer, the way
 * {@link LogScanner} reads a zstd object: the floor under a scan on the reading thread, since every
 * byte is decompressed before it can be split or parsed.
 */
public class ZstdDecompressBenchmark extends NativeMillisecondsPerOperation {

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
