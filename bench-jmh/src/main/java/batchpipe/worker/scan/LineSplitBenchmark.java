package batchpipe.worker.scan;

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

import java.util.concurrent.TimeUnit;

/**
 * Finding every line end of the sample, chunk by chunk, with {@link ChunkParser#indexOfNewline}: the
 * byte loop the parser falls back on to find the end of a malformed line, and the floor of any line
 * splitting. The parser itself finds the end of a valid line in the same pass that validates it
 * ({@link JsonLineValidator#scanLine}), so {@link ChunkParseBenchmark} with {@code countBy=none}
 * against this one shows what validating costs over splitting alone.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class LineSplitBenchmark {

    private byte[] lines;
    private int[] chunkEnds;

    @Setup
    public void generate() {
        lines = SampleInput.plain(SampleInput.LINES);
        chunkEnds = SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES);
        System.out.println(SampleInput.describe(lines, chunkEnds));
    }

    /** Returns the number of lines, which the benchmark harness consumes so the loop cannot be dropped. */
    @Benchmark
    public long newlineSearch() {
        byte[] b = lines;
        long count = 0;
        int start = 0;
        for (int end : chunkEnds) {
            int p = start;
            while (p < end) {
                int newline = ChunkParser.indexOfNewline(b, p, end);
                count++;
                p = newline < 0 ? end : newline + 1;
            }
            start = end;
        }
        return count;
    }
}
