package batchpipe.worker.scan;

import batchpipe.worker.benchmark.MillisecondsPerOperation;
import com.github.luben.zstd.ZstdInputStream;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.util.List;

/**
 * The scan's kernels on each shape of log, one thread, about 8 MB per operation ({@link ShapeInput}):
 * {@code validate} is the strict check alone ({@link JsonLineValidator#scanLine} line after line, nothing
 * extracted); {@code parse} is what a pool thread does with a chunk ({@link ChunkParser#parse}: check,
 * find level and status, count them); {@code decompress} is zstd-jni's stream over the same bytes,
 * the floor the scan is held to. Divide the input's bytes (printed at setup) by the time per operation
 * for MB/s. The source compiles against the scanner before issue 19 too, for A/B runs.
 */
public class ShapeKernelBenchmark extends MillisecondsPerOperation {

    @Param({"short", "long-values", "narrow"})
    public String shape;

    private byte[] lines;
    private byte[] compressed;
    private int[] chunkEnds;
    private JsonLineValidator validator;
    private ChunkParser parser;
    private final byte[] buffer = new byte[1 << 17];

    @Setup
    public void generate() {
        lines = ShapeInput.plain(ShapeInput.shape(shape));
        compressed = ShapeInput.zstd(lines);
        chunkEnds = SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES);
        validator = new JsonLineValidator();
        parser = new ChunkParser(ScanOptions.defaults().withCountBy(List.of("level", "status")));
        System.out.printf("input (%s): %,d bytes, %,d compressed%n", shape, lines.length, compressed.length);
    }

    @Benchmark
    public long validate() {
        byte[] b = lines;
        JsonLineValidator v = validator;
        long objects = 0;
        int p = 0;
        while (p < b.length) {
            int kind = v.scanLine(b, p, b.length);
            int end = v.lineEnd;
            if (kind == JsonLineValidator.MALFORMED) {
                end = ChunkParser.indexOfNewline(b, p, b.length);
                if (end < 0) {
                    end = b.length;
                }
            } else if (kind == JsonLineValidator.OBJECT) {
                objects++;
            }
            p = end + 1;
        }
        return objects;
    }

    @Benchmark
    public void parse(Blackhole tallies) {
        int start = 0;
        for (int end : chunkEnds) {
            tallies.consume(parser.parse(lines, start, end));
            start = end;
        }
    }

    /** {@link #parse} without JMH: the events counted, so the work cannot be dropped. */
    long parseOnce() {
        long events = 0;
        int start = 0;
        for (int end : chunkEnds) {
            events += parser.parse(lines, start, end).events;
            start = end;
        }
        return events;
    }

    @Benchmark
    public long decompress() throws IOException {
        long total = 0;
        try (InputStream in = new ZstdInputStream(new ByteArrayInputStream(compressed))) {
            for (int n; (n = in.read(buffer)) > 0; ) {
                total += n;
            }
        }
        return total;
    }
}
