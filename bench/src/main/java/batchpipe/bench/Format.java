package batchpipe.bench;

import java.util.List;
import java.util.Locale;

/** How the bench writes its figures: two decimals, rates in MB/s, and every run behind a median. */
final class Format {
    private Format() {
    }

    static String fixed(double v) {
        return String.format(Locale.ROOT, "%.2f", v);
    }

    static String rate(double seconds, long bytes) {
        return String.format(Locale.ROOT, "%.2f s = %.0f MB/s", seconds, megabytesPerSecond(bytes, seconds));
    }

    static double megabytesPerSecond(long bytes, double seconds) {
        return bytes / 1e6 / seconds;
    }

    static String list(List<Double> values) {
        return String.join(", ", values.stream().map(Format::fixed).toList());
    }

    static String seconds(List<Double> values) {
        return list(values) + " s";
    }

    static String abbreviate(String s, int n) {
        return s.length() <= n ? s : s.substring(0, n - 1) + "…";
    }
}
