package batchpipe.worker.scan;

import java.util.List;

/** What one chunk of whole lines contained; line numbers are local to the chunk (1-based). */
final class ChunkTally {

    long lines;
    long events;
    long malformed;
    long oversized;
    long matches;
    final long[] firstMalformed = new long[ScanResult.MAX_MALFORMED_LINES];
    int firstMalformedCount;
    /** Per countBy path. */
    final BoundedValueCounts[] counts;

    ChunkTally(List<String> countBy) {
        counts = new BoundedValueCounts[countBy.size()];
        for (int i = 0; i < counts.length; i++) {
            counts[i] = new BoundedValueCounts(countBy.get(i), 16);
        }
    }

    void malformedAt(long line) {
        malformed++;
        if (firstMalformedCount < firstMalformed.length) {
            firstMalformed[firstMalformedCount++] = line;
        }
    }

    /** A chunk holding one line that was longer than maxLineBytes and never buffered. */
    static ChunkTally oversizedLine(List<String> countBy) {
        ChunkTally t = new ChunkTally(countBy);
        t.lines = 1;
        t.oversized = 1;
        t.malformedAt(1);
        return t;
    }
}
