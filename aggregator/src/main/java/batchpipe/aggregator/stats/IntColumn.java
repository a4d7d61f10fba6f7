package batchpipe.aggregator.stats;

import java.util.Arrays;

/** A growable column of {@code int}s, as {@link LongColumn}: 4 bytes a value. */
public final class IntColumn {
    private int[] values = new int[1024];
    private int size;

    public void add(int value) {
        if (size == values.length) {
            long grown = (long) values.length + (values.length >> 1) + 1;
            if (values.length >= Integer.MAX_VALUE - 8) throw new IllegalStateException("more than " + (Integer.MAX_VALUE - 8) + " values in one column");
            values = Arrays.copyOf(values, (int) Math.min(grown, Integer.MAX_VALUE - 8));
        }
        values[size++] = value;
    }

    public int get(int index) {
        if (index >= size) throw new IndexOutOfBoundsException(index + " of " + size);
        return values[index];
    }

    public int size() {
        return size;
    }
}
