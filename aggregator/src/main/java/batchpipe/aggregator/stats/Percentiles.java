package batchpipe.aggregator.stats;

import batchpipe.aggregator.report.ReportJson;
import batchpipe.common.json.JsonFields;
import batchpipe.common.json.JsonWritable;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

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

    /**
     * {count, p50, p90, p95, p99, p99.9, max, mean} of some values; only the count for no values.
     *
     * @param reported the values at {@link #REPORTED}, in that order; empty for no values
     * @param max      null for no values
     * @param mean     rounded to 0.1; null for no values
     */
    public record Summary(int count, List<Long> reported, Long max, Double mean) implements JsonWritable {
        public static final List<String> LABELS = java.util.Arrays.stream(REPORTED).mapToObj(Percentiles::label).toList();

        public Summary {
            reported = List.copyOf(reported);
        }

        /** The value at a {@link #LABELS} label or {@code max}, null when there are no values. */
        public Long at(String label) {
            if (label.equals("max")) return max;
            int i = LABELS.indexOf(label);
            if (i < 0) throw new IllegalArgumentException("no percentile " + label + " in a summary (" + LABELS + ", max)");
            return reported.isEmpty() ? null : reported.get(i);
        }

        public Long p50() {
            return at("p50");
        }

        public Long p99() {
            return at("p99");
        }

        @Override
        public Object toJsonValue() {
            JsonFields json = new JsonFields().put("count", count);
            if (count == 0) return json;
            for (int i = 0; i < LABELS.size(); i++) json.put(LABELS.get(i), reported.get(i));
            return json.put("max", max).put("mean", mean);
        }

        public static Summary fromJson(ReportJson json) {
            int count = json.intValue("count");
            if (count == 0) return new Summary(0, List.of(), null, null);
            List<Long> reported = new ArrayList<>();
            for (String label : LABELS) reported.add(json.longValue(label));
            return new Summary(count, reported, json.longValue("max"), json.doubleValue("mean"));
        }
    }

    public static Summary summarize(long[] values) {
        if (values.length == 0) return new Summary(0, List.of(), null, null);
        long[] sorted = values.clone();
        Arrays.sort(sorted);
        List<Long> reported = new ArrayList<>();
        for (double p : REPORTED) reported.add(nearestRank(sorted, p));
        double sum = 0;
        for (long v : sorted) sum += v;
        return new Summary(values.length, reported, sorted[sorted.length - 1], Math.round(sum / sorted.length * 10) / 10.0);
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
