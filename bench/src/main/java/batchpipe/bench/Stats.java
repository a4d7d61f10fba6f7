package batchpipe.bench;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Small statistics for the bench: the median of several runs, which resists one noisy run on a shared machine. */
public final class Stats {
    private static final Pattern NUMBER = Pattern.compile("-?\\d+(\\.\\d+)?");

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

    /** Every decimal number in {@code text}, in order: a child's printed pass list or a single figure. */
    static List<Double> numbers(String text) {
        List<Double> values = new ArrayList<>();
        Matcher m = NUMBER.matcher(text);
        while (m.find()) values.add(Double.parseDouble(m.group()));
        return values;
    }
}
