package batchpipe.aggregator.stats;

import java.util.Arrays;

/**
 * A growable column of {@code long}s: one value per task record, 8 bytes each, where a list of boxed
 * values would take 16 to 24 and an object per record. The streaming aggregation keeps the values the
 * exact percentiles and the timeline need in such columns and drops each record once it is folded.
 */
public final class LongColumn {
    private long[] values = new long[1024];
    private int size;

    public void add(long value) {
        if (size == values.length) values = Arrays.copyOf(values, newCapacity());
        values[size++] = value;
    }

    public long get(int index) {
        if (index >= size) throw new IndexOutOfBoundsException(index + " of " + size);
        return values[index];
    }

    public int size() {
        return size;
    }

    /** A sorted copy, for nearest-rank percentiles; the column keeps its order. */
    public long[] sorted() {
        long[] copy = Arrays.copyOf(values, size);
        Arrays.sort(copy);
        return copy;
    }

    /** Grows by half, and refuses beyond what an array can hold rather than failing with a negative size. */
    private int newCapacity() {
        long grown = (long) values.length + (values.length >> 1) + 1;
        if (grown > Integer.MAX_VALUE - 8) {
            if (values.length >= Integer.MAX_VALUE - 8) {
                throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 8) + " values in one column");
            }
            return Integer.MAX_VALUE - 8;
        }
        return (int) grown;
    }
}
