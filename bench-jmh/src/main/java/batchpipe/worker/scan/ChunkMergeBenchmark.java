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

import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.TimeUnit;

/**
 * Merging chunk tallies in chunk order with {@link ScanRun#merge}, the work the reading thread does
 * between reads. The tallies are the sample's, parsed once at setup; what a merge costs is mostly
 * {@link BoundedValueCounts#addAll}, so it grows with the number of distinct values per chunk.
 */
@State(Scope.Thread)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class ChunkMergeBenchmark {

    /** A few distinct values per chunk, or thousands (http.path, user.id). */
    @Param({"level+status", "level+status+service+http.path+user.id"})
    public String countBy;

    private ScanOptions options;
    private ChunkTally[] tallies;
    /** Never run: ScanRun only reads its parallelism when built, and merging never touches it. */
    private ForkJoinPool pool;
    private ScanRun runUnderWay;

    @Setup
    public void parseSample() {
        options = SampleInput.countingBy(countBy);
        byte[] lines = SampleInput.plain(SampleInput.LINES);
        int[] chunkEnds = SampleInput.chunkEnds(lines, ScanOptions.DEFAULT_CHUNK_BYTES);
        ChunkParser parser = new ChunkParser(options);
        tallies = new ChunkTally[chunkEnds.length];
        int start = 0;
        for (int i = 0; i < chunkEnds.length; i++) {
            tallies[i] = parser.parse(lines, start, chunkEnds[i]);
            start = chunkEnds[i];
        }
        pool = new ForkJoinPool(1);
        runUnderWay = new ScanRun(pool, options);
        System.out.println(SampleInput.describe(lines, chunkEnds));
    }

    @TearDown
    public void stopPool() {
        pool.shutdownNow();
    }

    /**
     * Into one scan that goes on across operations: after the first few, every value is already in the
     * totals and the malformed-line list is full, the steady state of a long scan.
     */
    @Benchmark
    public ScanRun mergeIntoScanUnderWay() {
        ScanRun run = runUnderWay;
        for (ChunkTally tally : tallies) {
            run.merge(tally);
        }
        return run;
    }

    /**
     * Into a new scan each time, as for an object of this size: the first chunk inserts every value and
     * the tables grow. Includes building the ScanRun (its totals and the reader's own parser).
     */
    @Benchmark
    public ScanRun mergeIntoNewScan() {
        ScanRun run = new ScanRun(pool, options);
        for (ChunkTally tally : tallies) {
            run.merge(tally);
        }
        return run;
    }
}
