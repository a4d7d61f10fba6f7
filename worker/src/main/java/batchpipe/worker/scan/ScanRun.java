package batchpipe.worker.scan;

import java.io.IOException;
import java.io.InputStream;
import java.io.InterruptedIOException;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ForkJoinPool;
import java.util.concurrent.RejectedExecutionException;

/**
 * One scan: the calling thread reads the decoded stream into chunk buffers cut after the last newline,
 * hands the chunks to the pool in batches of {@code chunksPerTask} (each chunk tallied on its own, so the
 * tallies are the same whatever the batch), and merges chunk tallies in chunk order (so line numbers are
 * global and the result depends neither on the pool size nor on the batch size).
 *
 * <p>Memory: at most {@code maxBuffers = parallelism x chunksPerTask + 2} chunk buffers exist (a batch for
 * each pool thread and two for the reader), plus one line buffer of
 * {@code maxLineBytes + 2} bytes that carries the partial line between chunks and holds lines longer than
 * a chunk. A line known to exceed maxLineBytes is read through and dropped, never buffered. When no buffer
 * is free the reader runs a queued batch itself instead of waiting idle. At most {@code 2 x maxBuffers + 1}
 * chunk tallies exist at once with one chunk per task, {@code (parallelism + 4) x chunksPerTask} with
 * batches, and they and the scan's own countBy totals each keep within {@link BoundedValueCounts}' budget
 * per path.
 */
final class ScanRun {

    private static final VarHandle LONGS = MethodHandles.byteArrayViewVarHandle(long[].class, ByteOrder.LITTLE_ENDIAN);
    private static final long NEWLINES = 0x0A0A0A0A0A0A0A0AL;
    private static final long LOW_SEVEN = 0x7F7F7F7F7F7F7F7FL;

    private final ForkJoinPool pool;
    private final ScanOptions options;
    private final int chunkBytes;
    private final int maxLineBytes;
    private final int maxBuffers;
    /** Chunks cut but not yet handed to the pool: they go together, as one task of this many. */
    private final byte[][] batchBuffers;
    private final int[] batchLengths;
    private int batchSize;
    private final ArrayBlockingQueue<byte[]> freeBuffers;
    private int buffersCreated;
    private final ArrayDeque<ChunkTask> inFlight = new ArrayDeque<>();
    private final int maxInFlight;
    private final ConcurrentLinkedQueue<ChunkParser> idleParsers = new ConcurrentLinkedQueue<>();
    private final ChunkParser readerParser;
    /** Carries the partial last line of a chunk to the next one; holds lines longer than a chunk. */
    private byte[] lineBuffer = new byte[0];

    private InputStream decoded;
    private DecodeErrors decodeErrors;
    private long bytes;
    private long lines;
    private long events;
    private long malformed;
    private long oversized;
    private long matches;
    private final List<Long> malformedLines = new ArrayList<>();
    private final BoundedValueCounts[] counts;

    /** Turns an IOException from the decoded stream into what the caller should see. */
    interface DecodeErrors {
        IOException classify(IOException e, long uncompressedOffset);
    }

    ScanRun(ForkJoinPool pool, ScanOptions options) {
        this(pool, options, 1);
    }

    /**
     * @param chunksPerTask consecutive chunks handed to the pool as one task; each still gets its own tally,
     *                      so the result does not depend on it. Buffers scale with it:
     *                      {@code parallelism x chunksPerTask + 2} chunks at most. At least 1 ({@link LogScanner}
     *                      checks it).
     */
    ScanRun(ForkJoinPool pool, ScanOptions options, int chunksPerTask) {
        this.pool = pool;
        this.options = options;
        this.chunkBytes = options.chunkBytes();
        this.maxLineBytes = options.maxLineBytes();
        this.batchBuffers = new byte[chunksPerTask][];
        this.batchLengths = new int[chunksPerTask];
        // A batch for each pool thread and two chunks for the reader; with one chunk per task that is the
        // parallelism + 2 it always was. With batches, two more buffers rather than two more batches: once
        // they are full and no thread is free, the reader parses them itself instead of running up to 8 MiB
        // ahead of the parse. The CLI (2 threads, batches of 4) holds 10 MiB of buffers instead of 16. Whole
        // scans side by side, three start-up caches recorded per build (a cache's own recording moves a scan
        // by up to 7%: docs/BENCHMARKS.md): narrow lines 1.216 against 1.327 s and 11% fewer CPU-seconds,
        // long values 0.983 against 1.016 s, short lines even (1.470 against 1.463 s)
        this.maxBuffers = pool.getParallelism() * chunksPerTask + 2;
        // Tasks past this many are run or waited for by the reader. One chunk per task: two tasks per buffer, as
        // ever. Batches: parallelism + 3 tasks, whole or not, so that tallies in flight stay near the one-chunk
        // bound ((parallelism + 3) x chunksPerTask at most instead of 2 x (parallelism + 2) x chunksPerTask)
        this.maxInFlight = chunksPerTask == 1 ? 2 * (pool.getParallelism() + 2) : pool.getParallelism() + 3;
        this.freeBuffers = new ArrayBlockingQueue<>(maxBuffers);
        this.readerParser = new ChunkParser(options);
        this.counts = new BoundedValueCounts[options.countBy().size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new BoundedValueCounts(options.countBy().get(i), 64);
        }
    }

    long bytesRead() {
        return bytes;
    }

    /** Chunk buffers this scan has allocated so far (never more than {@code maxBuffers}). */
    int buffersCreated() {
        return buffersCreated;
    }

    /** Reads {@code in} to its end, tallying every line. */
    void readAll(InputStream in, DecodeErrors errors) throws IOException {
        this.decoded = in;
        this.decodeErrors = errors;
        byte[] buf = acquireBuffer();
        int filled = 0;
        for (;;) {
            boolean eof = false;
            while (filled < buf.length) {
                int n = read(buf, filled, buf.length - filled);
                if (n < 0) {
                    eof = true;
                    break;
                }
                filled += n;
            }
            if (eof) {
                if (filled > 0) {
                    submit(buf, filled);
                } else {
                    releaseBuffer(buf);
                }
                return;
            }
            int lastNewline = lastIndexOfNewline(buf, filled);
            if (lastNewline < 0) {
                // the full buffer is the start of one line at least chunkBytes long
                filled = readLongLine(buf, filled);
                if (filled < 0) {
                    releaseBuffer(buf);
                    return;
                }
                continue;
            }
            int tail = filled - lastNewline - 1;
            boolean tailOversized = tail > maxLineBytes + 1;
            if (!tailOversized && tail > 0) {
                ensureLineBuffer(tail);
                System.arraycopy(buf, lastNewline + 1, lineBuffer, 0, tail);
            }
            submit(buf, lastNewline + 1);
            buf = acquireBuffer();
            if (tailOversized) {
                filled = skipRestOfLine(buf);
                if (filled < 0) {
                    releaseBuffer(buf);
                    return;
                }
            } else {
                System.arraycopy(lineBuffer, 0, buf, 0, tail);
                filled = tail;
            }
        }
    }

    /**
     * {@code buf} is full and holds no newline. Finishes that line (parsed if it fits maxLineBytes, else
     * skipped), then moves whatever followed its newline to the front of {@code buf}. Returns the
     * number of bytes moved, or -1 at the end of the stream.
     */
    private int readLongLine(byte[] buf, int filled) throws IOException {
        if (filled > maxLineBytes + 1) {
            return skipRestOfLine(buf);
        }
        ensureLineBuffer(maxLineBytes + 2);
        byte[] line = lineBuffer;
        System.arraycopy(buf, 0, line, 0, filled);
        int length = filled;
        while (length < line.length) {
            // read at most a chunk at a time so what follows the newline always fits in buf
            int n = read(line, length, Math.min(line.length - length, buf.length));
            if (n < 0) {
                completed(readerParser.parse(line, 0, length));
                return -1;
            }
            int newline = ChunkParser.indexOfNewline(line, length, length + n);
            length += n;
            if (newline >= 0) {
                completed(readerParser.parse(line, 0, newline + 1));
                int rest = length - newline - 1;
                System.arraycopy(line, newline + 1, buf, 0, rest);
                return rest;
            }
        }
        // maxLineBytes + 2 bytes without a newline: oversized whatever the terminator is
        return skipRestOfLine(buf);
    }

    /**
     * Reads through the rest of a line already known to be oversized, using {@code buf} as scratch,
     * and records it. Returns the bytes after its newline (moved to the front of buf), or -1 at the end.
     */
    private int skipRestOfLine(byte[] buf) throws IOException {
        completed(ChunkTally.oversizedLine(options.countBy()));
        for (;;) {
            int n = read(buf, 0, buf.length);
            if (n < 0) {
                return -1;
            }
            int newline = ChunkParser.indexOfNewline(buf, 0, n);
            if (newline >= 0) {
                int rest = n - newline - 1;
                System.arraycopy(buf, newline + 1, buf, 0, rest);
                return rest;
            }
        }
    }

    private int read(byte[] b, int off, int len) throws IOException {
        int n;
        try {
            n = decoded.read(b, off, len);
        } catch (IOException e) {
            throw decodeErrors.classify(e, bytes);
        }
        if (n > 0) {
            bytes += n;
        }
        return n;
    }

    private void ensureLineBuffer(int size) {
        if (lineBuffer.length < size) {
            lineBuffer = new byte[Math.min(maxLineBytes + 2, Math.max(size, lineBuffer.length * 2))];
        }
    }

    /**
     * The index of the last newline in {@code b[0, end)}, or -1. Read eight bytes at a time from the end:
     * it runs on the reading thread, the scan's critical path, once per chunk, and with long lines (stack
     * traces, request bodies of 10-100 KB) it goes back through half a line on average. Called once per
     * chunk, ~500 times in a 500 MB scan, it would not reach C2 by itself and would run its first 200 calls
     * in the interpreter (5% of the reading thread's time in a long-values scan, async-profiler), so
     * {@link ParserPriming} compiles it early.
     */
    static int lastIndexOfNewline(byte[] b, int end) {
        int i = end;
        while (i >= Long.BYTES) {
            long found = newlineBytes((long) LONGS.get(b, i - Long.BYTES));
            if (found != 0) {
                return i - Long.BYTES + ((63 - Long.numberOfLeadingZeros(found)) >>> 3);
            }
            i -= Long.BYTES;
        }
        while (--i >= 0) {
            if (b[i] == '\n') {
                return i;
            }
        }
        return -1;
    }

    /**
     * The high bit of every byte of {@code word} that is a newline, and of no other. Exact per byte (no
     * borrow crosses into the next byte, unlike the shorter {@code (x - ONES) & ~x} test, which may also mark
     * a byte above a match), so the highest mark is the last newline.
     */
    static long newlineBytes(long word) {
        long x = word ^ NEWLINES;
        return ~(((x & LOW_SEVEN) + LOW_SEVEN) | x | LOW_SEVEN);
    }

    private void submit(byte[] buf, int length) throws IOException {
        batchBuffers[batchSize] = buf;
        batchLengths[batchSize] = length;
        batchSize++;
        if (batchSize == batchBuffers.length) {
            submitBatch();
        }
    }

    /** Hands the chunks cut so far to the pool, as one task. */
    private void submitBatch() throws IOException {
        if (batchSize == 0) {
            return;
        }
        ChunkTask task = new ChunkTask(this, batchBuffers, batchLengths, batchSize);
        Arrays.fill(batchBuffers, null);
        batchSize = 0;
        inFlight.addLast(task);
        try {
            pool.execute(task);
        } catch (RejectedExecutionException e) {
            // a shut-down pool: the reader runs the chunk itself when it next needs a buffer
        }
        mergeFinished(false);
    }

    private void completed(ChunkTally tally) throws IOException {
        submitBatch(); // the chunks before it come first
        inFlight.addLast(ChunkTask.completed(this, tally));
        mergeFinished(false);
    }

    /** Merges finished chunks from the head; with {@code all}, waits for (or runs) every chunk. */
    private void mergeFinished(boolean all) throws IOException {
        while (!inFlight.isEmpty()) {
            ChunkTask head = inFlight.peekFirst();
            if (!head.isDone()) {
                if (!all && inFlight.size() <= maxInFlight) {
                    return;
                }
                if (!head.runIfPending(readerParser)) {
                    await(head);
                }
            }
            inFlight.pollFirst();
            for (ChunkTally tally : head.tallies()) {
                merge(tally);
            }
        }
    }

    private byte[] acquireBuffer() throws IOException {
        for (;;) {
            byte[] b = freeBuffers.poll();
            if (b != null) {
                return b;
            }
            if (buffersCreated < maxBuffers) {
                buffersCreated++;
                return new byte[chunkBytes];
            }
            if (batchSize > 0) {
                submitBatch(); // its chunks hold buffers: once tallied they come back
                continue;
            }
            if (runOldestPending()) {
                continue;
            }
            // every buffer belongs to a running chunk, which will give it back
            try {
                return freeBuffers.take();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for a chunk buffer");
            }
        }
    }

    private boolean runOldestPending() throws IOException {
        for (ChunkTask task : inFlight) {
            if (task.isPending() && task.runIfPending(readerParser)) {
                mergeFinished(false);
                return true;
            }
        }
        return false;
    }

    private static void await(ChunkTask task) throws InterruptedIOException {
        try {
            task.awaitDone();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new InterruptedIOException("interrupted while waiting for a chunk");
        }
    }

    void releaseBuffer(byte[] b) {
        if (b != null) {
            freeBuffers.offer(b);
        }
    }

    ChunkParser borrowParser() {
        ChunkParser parser = idleParsers.poll();
        return parser != null ? parser : new ChunkParser(options);
    }

    void returnParser(ChunkParser parser) {
        idleParsers.offer(parser);
    }

    /**
     * Adds one chunk's tally; chunks come in order, since its line numbers are offset by the lines merged
     * before it. Package-private so that bench-jmh's ChunkMergeBenchmark measures this merge itself.
     */
    void merge(ChunkTally tally) {
        for (int i = 0; i < tally.firstMalformedCount && malformedLines.size() < ScanResult.MAX_MALFORMED_LINES;
                i++) {
            malformedLines.add(lines + tally.firstMalformed[i]);
        }
        lines += tally.lines;
        events += tally.events;
        malformed += tally.malformed;
        oversized += tally.oversized;
        matches += tally.matches;
        for (int i = 0; i < counts.length; i++) {
            counts[i].addAll(tally.counts[i]);
        }
    }

    /** Waits for every chunk and builds the result. */
    ScanResult finish(long compressedBytes) throws IOException {
        submitBatch();
        mergeFinished(true);
        Map<String, Map<String, Long>> countBy = new LinkedHashMap<>();
        Map<String, ApproximateCounts> approximate = new LinkedHashMap<>();
        for (int i = 0; i < counts.length; i++) {
            String path = options.countBy().get(i);
            TreeMap<String, Long> values = new TreeMap<>();
            TreeMap<String, Long> overCounts = new TreeMap<>();
            counts[i].addTo(values, overCounts);
            countBy.put(path, values);
            if (!counts[i].isExact()) {
                approximate.put(path, new ApproximateCounts(counts[i].events(), counts[i].distinct(), overCounts));
            }
        }
        return new ScanResult(events, malformed, malformedLines, oversized, bytes, compressedBytes, countBy,
                options.match() == null ? null : matches, approximate);
    }

    /**
     * After a failure: chunks nobody started are dropped and running ones are waited for, so no work of
     * this scan outlives the call.
     */
    void abandon() {
        boolean interrupted = false;
        for (ChunkTask task : inFlight) {
            if (!task.cancelIfPending()) {
                try {
                    task.awaitDone();
                } catch (InterruptedException e) {
                    interrupted = true;
                    break;
                }
            }
        }
        inFlight.clear();
        Arrays.fill(batchBuffers, null);
        batchSize = 0;
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
