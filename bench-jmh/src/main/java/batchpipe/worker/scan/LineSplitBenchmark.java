package batchpipe.worker.scan;

import batchpipe.worker.benchmark.MillisecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Setup;


/**
 * Finding every line end of the sample, chunk by chunk, with {@link ChunkParser#indexOfNewline}: the
 * byte loop the parser falls back on to find the end of a malformed line, and the floor of any line
 * splitting. The parser itself finds the end of a valid line in the same pass that validates it
 * ({@link JsonLineValidator#scanLine}), so {@link ChunkParseBenchmark} with {@code countBy=none}
 * against this one shows what validating costs over splitting alone.
 */
public class LineSplitBenchmark extends MillisecondsPerOperation {

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
