package batchpipe.worker.scan;

import java.util.HashSet;
import java.util.List;

/**
 * How to scan one object.
 *
 * @param countBy      dotted field paths whose scalar values are counted per distinct value
 * @param match        what {@link ScanResult#matches()} counts, or null for no match
 * @param maxLineBytes longest line (terminator excluded) that is parsed; longer lines are skipped
 *                     without being buffered and counted as oversized and malformed
 * @param chunkBytes   size of one parse chunk; memory stays near (threads x chunksPerTask + 2) x chunkBytes
 *                     + maxLineBytes (chunksPerTask is 1 except in the CLI's scan: {@link LogScanner}),
 *                     plus the countBy budget of {@link BoundedValueCounts}
 */
public record ScanOptions(List<String> countBy, Match match, int maxLineBytes, int chunkBytes) {

    public static final int MIN_LINE_BYTES = 16;
    public static final int MAX_LINE_BYTES = 64 << 20;
    public static final int MIN_CHUNK_BYTES = 64;
    public static final int MAX_CHUNK_BYTES = 64 << 20;
    public static final int MAX_COUNT_BY_PATHS = 32;

    public static final int DEFAULT_MAX_LINE_BYTES = 1 << 20;
    /**
     * 1 MiB. On a 200 MB zstd log with 1 and 2 pool threads, 256 KiB, 1 MiB and 4 MiB scanned at the same
     * speed within the noise of a shared 2-core machine. 1 MiB keeps the memory bound low, amortizes the
     * per-chunk work (a task, a tally, an ordered merge) over ~4,500 lines, and keeps short the stretch
     * in which the reading thread tallies a queued chunk itself instead of decompressing.
     */
    public static final int DEFAULT_CHUNK_BYTES = 1 << 20;

    public ScanOptions {
        if (countBy == null) {
            throw new IllegalArgumentException("countBy must not be null (use an empty list to count nothing)");
        }
        if (countBy.size() > MAX_COUNT_BY_PATHS) {
            throw new IllegalArgumentException(
                    "countBy has " + countBy.size() + " paths; the limit is " + MAX_COUNT_BY_PATHS);
        }
        HashSet<String> seen = new HashSet<>();
        for (String path : countBy) {
            FieldPath.requireValid(path, "countBy path");
            if (!seen.add(path)) {
                throw new IllegalArgumentException("countBy lists path '" + path + "' twice");
            }
        }
        countBy = List.copyOf(countBy);
        if (maxLineBytes < MIN_LINE_BYTES || maxLineBytes > MAX_LINE_BYTES) {
            throw new IllegalArgumentException("maxLineBytes must be between " + MIN_LINE_BYTES + " and "
                    + MAX_LINE_BYTES + " bytes, was " + maxLineBytes);
        }
        if (chunkBytes < MIN_CHUNK_BYTES || chunkBytes > MAX_CHUNK_BYTES) {
            throw new IllegalArgumentException("chunkBytes must be between " + MIN_CHUNK_BYTES + " and "
                    + MAX_CHUNK_BYTES + " bytes, was " + chunkBytes);
        }
    }

    /** countBy {@code level} and {@code status}, no match, 1 MiB lines, tuned chunk size. */
    public static ScanOptions defaults() {
        return new ScanOptions(List.of("level", "status"), null, DEFAULT_MAX_LINE_BYTES, DEFAULT_CHUNK_BYTES);
    }

    public ScanOptions withCountBy(List<String> paths) {
        return new ScanOptions(paths, match, maxLineBytes, chunkBytes);
    }

    public ScanOptions withMatch(Match newMatch) {
        return new ScanOptions(countBy, newMatch, maxLineBytes, chunkBytes);
    }

    public ScanOptions withMaxLineBytes(int bytes) {
        return new ScanOptions(countBy, match, bytes, chunkBytes);
    }

    public ScanOptions withChunkBytes(int bytes) {
        return new ScanOptions(countBy, match, maxLineBytes, bytes);
    }
}
