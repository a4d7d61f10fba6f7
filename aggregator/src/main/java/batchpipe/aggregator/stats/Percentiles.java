package batchpipe.aggregator.stats;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Exact percentiles by the nearest-rank definition: sort the N values; the p-th percentile is the value
 * at rank ceil(p/100 × N) (1-based). No interpolation and no sampling, so anyone can check a figure
 * against the sorted column of tasks.csv.
 */
public final class Percentiles {
    public static final double[] REPORTED = {50, 90, 95, 99, 99.9};

    private Percentiles() {
    }

    /** The value at nearest rank for p in (0, 100]; {@code sorted} must be ascending and non-empty. */
    public static long nearestRank(long[] sorted, double p) {
        if (sorted.length == 0) throw new IllegalArgumentException("no values");
        if (p <= 0 || p > 100) throw new IllegalArgumentException("percentile must be in (0, 100], got " + p);
        // p/100 × N computed in integer thousandths so 99.9 × 1000 does not round up by a hair.
        long thousandths = Math.round(p * 1000);
        long rank = (thousandths * sorted.length + 100_000 - 1) / 100_000;
        return sorted[(int) Math.max(1, rank) - 1];
    }

    /** {count, p50, p90, p95, p99, p99.9, max, mean} of the values; only {count: 0} for no values. */
    public static Map<String, Object> summarize(long[] values) {
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("count", values.length);
        if (values.length == 0) return summary;
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        for (double p : REPORTED) {
            summary.put(label(p), nearestRank(sorted, p));
        }
        summary.put("max", sorted[sorted.length - 1]);
        double sum = 0;
        for (long v : sorted) sum += v;
        summary.put("mean", Math.round(sum / sorted.length * 10) / 10.0);
        return summary;
    }

    /** The percentiles a distribution (CDF) is drawn at: 1 to 100 in steps of 1, with 99.9 before 100. */
    public static List<Double> distributionPoints() {
        List<Double> points = new ArrayList<>();
        for (int p = 1; p <= 99; p++) points.add((double) p);
        points.add(99.9);
        points.add(100.0);
        return points;
    }

    /** The nearest-rank value at each of {@link #distributionPoints()}; empty for no values. */
    public static List<Long> distribution(long[] values) {
        if (values.length == 0) return List.of();
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        List<Long> out = new ArrayList<>();
        for (double p : distributionPoints()) out.add(nearestRank(sorted, p));
        return out;
    }

    static String label(double p) {
        return p == Math.rint(p) ? "p" + (long) p : "p" + String.valueOf(p);
    }
}
