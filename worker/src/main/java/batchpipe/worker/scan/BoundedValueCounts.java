package batchpipe.worker.scan;

import java.util.Map;

/**
 * Counts the values of one countBy path in bounded memory: exactly, in a {@link ValueCountTable}, while
 * there are at most {@value #MAX_EXACT_VALUES} distinct values holding at most 4 MiB of bytes; past that,
 * approximately: the most frequent values in a {@link HeavyHitterSketch} of {@value #SKETCH_COUNTERS}
 * counters over at most 2 MiB of values (each count over-states its value's true count by at most its own
 * error, and every error is at most N / 16,384 of the path's N events, 2N / 16,384 once chunk sketches are
 * merged), and the number of distinct values from a {@link DistinctValueEstimator} (0.81 % standard
 * error). A user id over a few million events thus costs the same memory as one over a few hundred.
 *
 * <p>The budget, as retained by the arrays ({@link #retainedBytes}), per path:
 * <ul>
 *   <li>exact: 65,000 values fill at most 131,072 slots and 65,536 entries (the table doubles at half
 *       full), 14 bytes a slot: 1.75 MiB, plus the 4 MiB arena: <b>5.75 MiB</b>;</li>
 *   <li>approximate: 16,384 counters of 40 bytes and 32,768 slots of 4: 0.75 MiB, plus an arena twice
 *       the 2 MiB of values (replaced values are garbage until compacted): 4 MiB, plus 16 KiB of
 *       HyperLogLog registers: <b>4.7 MiB</b>; both exist for the moment of the switch, 10.5 MiB.</li>
 * </ul>
 * Worst case for one scan in a 1,769 MB function (a heap of about 1,500 MB, one pool thread), every one of
 * a task's 16 paths at its limit at once:
 * <ul>
 *   <li>while reading: the scan's 16 counters, 16 x 5.75 = 92 MiB (+ 4.7 MiB during a switch), and the
 *       chunk tallies in flight, at most 2 x (threads + 2) + 2 = 8 of them. A 1 MiB chunk holds at most
 *       131,072 values (an 8-byte line each), so only with one or two paths can a chunk's path pass the
 *       exact limit: 2 x 10.5 MiB = 21 MiB per tally at most, 8 x 21 = 168 MiB; with the 4 MiB of chunk
 *       and line buffers, about 265 MiB;</li>
 *   <li>at the end, once the tallies are merged: the 92 MiB of counters and the result built from them,
 *       16 x 65,000 values as Strings in sorted maps (about 140 bytes each, 146 MB) plus their text
 *       (16 x 4 MiB of UTF-8, at most twice that as UTF-16: 128 MiB), about 370 MB.</li>
 * </ul>
 * So under a quarter of that heap, whatever the object holds. (The CLI accepts 32 paths, and hands chunks to
 * its pool four at a time ({@link LogScanner#CLI_CHUNKS_PER_TASK}), so with two threads up to 6 batches of 4
 * tallies are in flight: 24 x 21 MiB + 32 x 5.75 MiB, about 690 MiB at worst.)
 *
 * <p>Approximate counts do not depend on the pool size (chunks merge in order) but may on the chunk size.
 * Not thread-safe.
 */
final class BoundedValueCounts {

    /**
     * Just under the 65,536 values at which the table would double again; the sample logs' 60,000 HTTP paths
     * and 50,000 user ids stay exact.
     */
    static final int MAX_EXACT_VALUES = 65_000;
    static final int MAX_EXACT_VALUE_BYTES = 4 << 20;
    static final int SKETCH_COUNTERS = 16_384;
    /** Fewer counters and every error could be over 0.1 % of the events: the values are too long to count. */
    static final int MIN_SKETCH_COUNTERS = 1_024;
    static final int SKETCH_VALUE_BYTES = 2 << 20;

    /** The limits above; smaller ones let tests reach the switch with small inputs. */
    record Limits(int maxExactValues, int maxExactValueBytes, int sketchCounters, int minSketchCounters,
                  int sketchValueBytes) {
        static final Limits DEFAULT = new Limits(MAX_EXACT_VALUES, MAX_EXACT_VALUE_BYTES, SKETCH_COUNTERS,
                MIN_SKETCH_COUNTERS, SKETCH_VALUE_BYTES);
    }

    private final String path;
    private final Limits limits;
    /** Null once counting is approximate. */
    private ValueCountTable exact;
    private HeavyHitterSketch sketch;
    private DistinctValueEstimator distinct;
    /** While approximate: events counted, and distinct values known for certain (counted exactly before). */
    private long events;
    private long distinctAtLeast;

    BoundedValueCounts(String path, int expectedValues) {
        this(path, expectedValues, Limits.DEFAULT);
    }

    BoundedValueCounts(String path, int expectedValues, Limits limits) {
        this.path = path;
        this.limits = limits;
        this.exact = new ValueCountTable(expectedValues, limits.maxExactValues(), limits.maxExactValueBytes());
    }

    /** Counts one occurrence of {@code key[off, off + len)}. */
    void add(byte[] key, int off, int len) {
        ValueCountTable table = exact;
        if (table == null || !table.add(key, off, len, 1)) {
            addApproximately(key, off, len, ValueCountTable.hash(key, off, len), 1);
        }
    }

    /** Adds every count of {@code other} (left unchanged) to these. */
    void addAll(BoundedValueCounts other) {
        ValueCountTable from = other.exact;
        if (from == null) {
            if (exact != null) {
                becomeApproximate();
            }
            sketch.merge(other.sketch);
            distinct.merge(other.distinct);
            events += other.events;
            distinctAtLeast = Math.max(distinctAtLeast, other.distinctAtLeast);
            return;
        }
        byte[] keys = from.arena();
        int i = 0;
        int n = from.size();
        if (exact != null) {
            while (i < n && exact.add(keys, from.keyOffset(i), from.keyLength(i), from.keyHash(i), from.count(i))) {
                i++;
            }
            if (i == n) {
                return;
            }
            becomeApproximate();
        }
        for (; i < n; i++) {
            addApproximately(keys, from.keyOffset(i), from.keyLength(i), from.keyHash(i), from.count(i));
        }
    }

    private void addApproximately(byte[] key, int off, int len, int hash, long count) {
        if (exact != null) {
            becomeApproximate();
        }
        events += count;
        distinct.add(key, off, len);
        sketch.add(key, off, len, hash, count);
    }

    /** The exact counts become the sketch's first counters, with no error: the largest ones are kept. */
    private void becomeApproximate() {
        ValueCountTable table = exact;
        sketch = new HeavyHitterSketch(path, limits.sketchCounters(), limits.minSketchCounters(),
                limits.sketchValueBytes());
        distinct = new DistinctValueEstimator();
        byte[] keys = table.arena();
        for (int i = 0; i < table.size(); i++) {
            distinct.add(keys, table.keyOffset(i), table.keyLength(i));
            sketch.offerExact(keys, table.keyOffset(i), table.keyLength(i), table.keyHash(i), table.count(i));
        }
        events = table.total();
        distinctAtLeast = table.size();
        exact = null;
    }

    boolean isExact() {
        return exact != null;
    }

    /** Events that had a value at this path; exact either way. */
    long events() {
        return exact != null ? exact.total() : events;
    }

    /** Distinct values: exact while {@link #isExact()}, else estimated (never below those known). */
    long distinct() {
        if (exact != null) {
            return exact.size();
        }
        return Math.max(distinct.estimate(), Math.max(distinctAtLeast, sketch.size()));
    }

    /**
     * Adds each counted value (decoded as UTF-8) with its count to {@code counts}; when approximate, also
     * by how much that count may over-state the truth to {@code overCounts}.
     */
    void addTo(Map<String, Long> counts, Map<String, Long> overCounts) {
        if (exact != null) {
            exact.addTo(counts);
        } else {
            sketch.forEach((value, count, error) -> {
                counts.put(value, count);
                overCounts.put(value, error);
            });
        }
    }

    /** Bytes of the arrays held now (object headers aside). */
    long retainedBytes() {
        return exact != null ? exact.retainedBytes() : sketch.retainedBytes() + distinct.retainedBytes();
    }

    /** The most {@link #retainedBytes()} can reach under {@code limits}, outside the moment of the switch. */
    static long maxRetainedBytes(Limits limits) {
        // the table doubles its slots when half full, so its last size is the power of two above twice the values
        long slots = Integer.highestOneBit(2 * limits.maxExactValues()) << 1;
        long exact = limits.maxExactValueBytes() + 4 * slots + (3 * 4 + 8) * (slots / 2);
        long approximate = HeavyHitterSketch.maxRetainedBytes(limits.sketchCounters(), limits.sketchValueBytes())
                + (1 << DistinctValueEstimator.PRECISION);
        return Math.max(exact, approximate);
    }
}
