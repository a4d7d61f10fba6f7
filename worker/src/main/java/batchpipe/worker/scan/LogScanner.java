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

    private final ForkJoinPool pool;

    /**
     * Touches no zstd class: zstd-jni's native code is unpacked and linked when the first zstd object is
     * opened (on JDK 22+ it binds through FFM, which takes several hundred milliseconds to set up), so a
     * worker that only hashes never pays for it in its cold start. With SnapStart the priming scans load
     * it before the snapshot. Without zstd on the platform, plain and gzip still scan and a zstd object
     * fails when it is opened.
     */
    public LogScanner(ForkJoinPool pool) {
        this.pool = Objects.requireNonNull(pool, "pool");
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
        } finally {
            ParserPriming.ensure();
        }
    }

    public ScanResult scan(InputStream source, ScanOptions options) throws IOException {
        Objects.requireNonNull(source, "source");
        Objects.requireNonNull(options, "options");
        CountingSource counted = new CountingSource(source, CompressionFormat.MAGIC_BYTES);
        byte[] head = counted.peek(CompressionFormat.MAGIC_BYTES);
        CompressionFormat format = CompressionFormat.detect(head, counted.peeked());
        ScanRun run = new ScanRun(pool, options);
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
