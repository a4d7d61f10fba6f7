package batchpipe.worker.scan;

import batchpipe.local.sample.SampleLogs;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.List;

/**
 * The benchmarks' input: seeded log lines from {@link SampleLogs}, the generator behind
 * {@code ./batchpipe sample} and {@code ./batchpipe bench}, so a kernel here reads the same kind of
 * lines as the published whole-scan figures, byte for byte for the same seed and line count.
 */
final class SampleInput {

    /** The seed and malformed-line rate of {@code ./batchpipe sample} and {@code ./batchpipe bench}. */
    static final long SEED = 42;
    static final int MALFORMED_EVERY = 2_000;

    /**
     * About 8 MB of lines: several default chunks per operation, so per-operation costs (a tally, a
     * stream) weigh as little as in a real object, while generating it takes well under a second.
     */
    static final int LINES = 32_000;

    private SampleInput() {
    }

    /** {@code lines} JSON lines, uncompressed, as object 0 of {@code ./batchpipe sample} would hold them. */
    static byte[] plain(int lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(lines * 260);
        try {
            new SampleLogs(SEED, MALFORMED_EVERY).write(0, lines, out);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
        return out.toByteArray();
    }

    /** The same lines zstd-compressed at level 3, as {@code ./batchpipe sample} writes them. */
    static byte[] zstd(int lines) {
        try {
            return new SampleLogs(SEED, MALFORMED_EVERY).zstdObject(0, lines);
        } catch (IOException e) {
            throw new UncheckedIOException("writing to memory cannot fail", e);
        }
    }

    /**
     * Where ScanRun would cut {@code b} into chunks of at most {@code chunkBytes}: each chunk ends just
     * after its last newline. Returns the end of each chunk; a chunk starts where the one before ended.
     * The sample has no line longer than a chunk, so the reader's long-line path never applies.
     */
    static int[] chunkEnds(byte[] b, int chunkBytes) {
        int[] ends = new int[b.length / chunkBytes * 2 + 2];
        int count = 0;
        int start = 0;
        while (start < b.length) {
            int limit = Math.min(b.length, start + chunkBytes);
            int end = limit;
            if (limit < b.length) {
                while (end > start && b[end - 1] != '\n') {
                    end--;
                }
                if (end == start) {
                    throw new IllegalStateException("a line longer than a chunk at offset " + start);
                }
            }
            ends[count++] = end;
            start = end;
        }
        return Arrays.copyOf(ends, count);
    }

    /**
     * Scan options from a benchmark parameter: {@code none} or countBy paths joined by {@code +}, so a run
     * can try other fields with {@code -p countBy=msg+http.method} (JMH splits -p values at commas).
     */
    static ScanOptions countingBy(String countBy) {
        List<String> paths = countBy.equals("none") ? List.of() : List.of(countBy.split("\\+"));
        return ScanOptions.defaults().withCountBy(paths);
    }

    /** A one-line description printed at setup, so every result in the log says what it read. */
    static String describe(byte[] lines, int[] chunkEnds) {
        long newlines = 0;
        for (byte c : lines) {
            if (c == '\n') {
                newlines++;
            }
        }
        return String.format("input: %,d bytes, %,d lines, %d chunks of at most %,d bytes (seed %d)",
                lines.length, newlines, chunkEnds.length, ScanOptions.DEFAULT_CHUNK_BYTES, SEED);
    }
}
