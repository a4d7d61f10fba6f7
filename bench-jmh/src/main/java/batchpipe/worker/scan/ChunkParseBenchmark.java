package batchpipe.worker.scan;

import batchpipe.worker.benchmark.MillisecondsPerOperation;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.infra.Blackhole;


/**
 * Parsing: {@link ChunkParser#parse} over the sample's chunks, as a pool thread runs each chunk of a
 * scan. Per line that is the strict validation ({@link JsonLineValidator}), then, for the requested
 * paths, finding their values (in the same pass since issue 19), string unescaping where needed and counting
 * into the chunk's {@link BoundedValueCounts}. One parser per thread, reused across operations as a
 * pool thread reuses it across chunks; each chunk's new {@link ChunkTally} is part of the cost.
 */
public class ChunkParseBenchmark extends MillisecondsPerOperation {

    /**
     * {@code none}: validation only (the parser skips field reading). {@code level+status}: the CLI's and
     * the bench's default. The third adds a nested path and two high-cardinality fields (thousands of
     * distinct values per chunk), the expensive end of counting.
     */
    @Param({"none", "level+status", "level+status+service+http.path+user.id"})
    public String countBy;

    private byte[] lines;
    private int[] chunkEnds;
    private ChunkParser parser;

    @Setup
    public void generate() {
        lines = SampleInput.plain(SampleInput.LINES);
        chunkEnds = SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES);
        parser = new ChunkParser(SampleInput.countingBy(countBy));
        System.out.println(SampleInput.describe(lines, chunkEnds));
    }

    @Benchmark
    public void parseChunks(Blackhole tallies) {
        int start = 0;
        for (int end : chunkEnds) {
            tallies.consume(parser.parse(lines, start, end));
            start = end;
        }
    }
}
