package batchpipe.local.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/** Small statistics for the bench: the median of several runs, which resists one noisy run on a shared machine. */
public final class Stats {
    private Stats() {
    }

    /** The median; the mean of the two middle values for an even count. */
    public static double median(List<Double> values) {
        if (values == null || values.isEmpty()) throw new IllegalArgumentException("no values for a median");
        List<Double> sorted = new ArrayList<>(values);
        Collections.sort(sorted);
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : (sorted.get(n / 2 - 1) + sorted.get(n / 2)) / 2.0;
    }

    public static double min(List<Double> values) {
        if (values == null || values.isEmpty()) throw new IllegalArgumentException("no values for a minimum");
        return Collections.min(values);
    }
}
