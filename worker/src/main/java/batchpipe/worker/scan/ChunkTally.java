package batchpipe.worker.scan;

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
    final ValueCountTable[] counts;

    ChunkTally(int countByPaths) {
        counts = new ValueCountTable[countByPaths];
        for (int i = 0; i < countByPaths; i++) {
            counts[i] = new ValueCountTable();
        }
    }

    void malformedAt(long line) {
        malformed++;
        if (firstMalformedCount < firstMalformed.length) {
            firstMalformed[firstMalformedCount++] = line;
        }
    }

    /** A chunk holding one line that was longer than maxLineBytes and never buffered. */
    static ChunkTally oversizedLine(int countByPaths) {
        ChunkTally t = new ChunkTally(countByPaths);
        t.lines = 1;
        t.oversized = 1;
        t.malformedAt(1);
        return t;
    }
}
