package batchpipe.worker.scan;

import com.github.luben.zstd.ZstdInputStreamNoFinalizer;
import com.github.luben.zstd.util.Native;

import java.io.IOException;
import java.io.InputStream;
import java.util.Locale;
import java.util.Objects;
import java.util.concurrent.ForkJoinPool;

/**
 * Scans a stream of JSON log lines (plain, zstd or gzip, told by magic bytes) and counts events,
 * malformed lines, values per field and matches, in bounded memory whatever the object's size and however
 * many distinct values a field has (past a budget, values are counted approximately and the result says
 * so: {@link BoundedValueCounts}).
 *
 * <p>The calling thread reads and decompresses; chunks of whole lines are tallied on the given pool
 * (owned by the caller, never shut down here) and merged in order, so the result is the same for any
 * pool size. The source is read to its end but not closed.
 *
 * <p>Failures: an IOException thrown by {@code source} propagates unchanged (the read broke; retrying
 * may help). Bytes that are not valid zstd or gzip, or a stream truncated mid-frame, raise
 * {@link CorruptDataException} (retrying cannot help).
 */
public final class LogScanner {

    /** Deflate input buffer: big reads keep the per-call overhead of the source small. */
    private static final int GZIP_INPUT_BYTES = 256 << 10;

    /**
     * 4, for a process whose one job is a scan (the CLI's {@code scan}): a quarter of the hand-offs to parked
     * pool threads. Whole processes side by side (2026-12-02): 4 MiB chunks, which hand off as rarely, took
     * 1.00 s and 1.78 CPU-seconds on the long-values corpus against 1.13 s and 1.93 for 1 MiB chunks (5
     * rounds), while 16 buffers of 1 MiB, each its own task, gained nothing, so it is the hand-offs, not
     * more slack. Bigger chunks are not the way: approximate countBy figures depend on where chunks are cut
     * (a sketch merges the chunk tallies), and they must not change. Batches of four 1 MiB chunks, over 10
     * rounds on a noisy machine: 1.18 s against 1.22 s one chunk per task and 1.17 s with 4 MiB chunks. The
     * worker keeps 1: four times the buffers and tallies in flight would not fit its documented memory bound.
     */
    public static final int CLI_CHUNKS_PER_TASK = 4;

    private final ForkJoinPool pool;
    private final int chunksPerTask;

    /**
     * Touches no zstd class: zstd-jni's native code is unpacked and linked when the first zstd object is
     * opened (on JDK 22+ it binds through FFM, which takes several hundred milliseconds to set up), so a
     * worker that only hashes never pays for it in its cold start. With SnapStart the priming scans load
     * it before the snapshot. Without zstd on the platform, plain and gzip still scan and a zstd object
     * fails when it is opened.
     */
    public LogScanner(ForkJoinPool pool) {
        this(pool, 1);
    }

    /**
     * @param chunksPerTask chunks handed to the pool as one task (at least 1). Each chunk is still tallied on
     *                      its own, so results are the same for any value; more per task means fewer hand-offs
     *                      to parked pool threads and that many times the chunk buffers
     *                      ({@link #CLI_CHUNKS_PER_TASK}).
     */
    public LogScanner(ForkJoinPool pool, int chunksPerTask) {
        this.pool = Objects.requireNonNull(pool, "pool");
        if (chunksPerTask < 1) {
            throw new IllegalArgumentException("chunksPerTask must be at least 1, was " + chunksPerTask);
        }
        this.chunksPerTask = chunksPerTask;
    }

    /**
     * Does now what a JVM's first scan would otherwise do at its start: links zstd-jni's native library
     * and primes the parser ({@link ParserPriming}). For a caller with a spare core and other start-up
     * work to do meanwhile, such as the CLI parsing its arguments. Safe from any thread and idempotent: a
     * scan started while it runs reads on, its chunks wait for the priming (class initialisation), and it is
     * never repeated.
     * Throws what linking the native library throws (a platform zstd-jni has no build for).
     */
    public static void prepare() {
        // The library first: the reading thread needs it to open its first zstd input, the parser's priming
        // only when that input's first chunk is decompressed
        try {
            Native.load();
        } catch (LinkageError | RuntimeException e) {
            ParserPriming.ensure(); // plain and gzip inputs still scan
            throw e;
        }
        ParserPriming.ensure();
    }

    public ScanResult scan(InputStream source, ScanOptions options) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(options, "options");
        CountingSource counted = new CountingSource(source, CompressionFormat.MAGIC_BYTES);
        byte[] head = counted.peek(CompressionFormat.MAGIC_BYTES);
        CompressionFormat format = CompressionFormat.detect(head, counted.peeked());
        ScanRun run = new ScanRun(pool, options, chunksPerTask);
        boolean finished = false;
        try (InputStream decoded = open(format, counted)) {
            run.readAll(decoded, (e, offset) -> classify(e, format, counted, offset));
            ScanResult result = run.finish(counted.count());
            finished = true;
            return result;
        } finally {
            if (!finished) {
                run.abandon();
            }
        }
    }

    private static InputStream open(CompressionFormat format, CountingSource counted) throws IOException {
        return switch (format) {
            case PLAIN -> counted;
            case ZSTD -> new ZstdInputStreamNoFinalizer(counted);
            case GZIP -> new GzipMembersInputStream(counted, GZIP_INPUT_BYTES);
        };
    }

    private static IOException classify(IOException e, CompressionFormat format, CountingSource counted,
                                        long uncompressedOffset) {
        IOException fromSource = counted.sourceFailure();
        if (fromSource != null) {
            return fromSource;
        }
        if (format == CompressionFormat.PLAIN || e instanceof CorruptDataException) {
            return e;
        }
        return new CorruptDataException(format.name().toLowerCase(Locale.ROOT)
                + " data is corrupt or truncated at uncompressed offset " + uncompressedOffset
                + " (compressed offset " + counted.count() + "): " + e.getMessage(), e);
    }
}
