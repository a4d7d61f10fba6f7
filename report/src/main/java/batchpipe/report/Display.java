package batchpipe.report;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;
import java.text.DecimalFormat;
import java.text.DecimalFormatSymbols;
import java.util.Locale;

/**
 * Numbers as people read them, the same in the CLI summary, report.md, report.html and the comparison:
 * costs, rates, durations, shares and ratios to {@value #FIGURES} significant figures, GB-s to 3 decimals,
 * counts and bytes exact with thousands separators. report.json keeps every figure at full precision;
 * these are only how a figure is shown. Rounding is half-even, as {@link BigDecimal} rounds, so a
 * figure rounds the same way from report.json as from the code. Absent figures (null, NaN) show as a dash.
 */
public final class Display {
    /** Significant figures of a cost, rate, duration, share or ratio. */
    public static final int FIGURES = 4;
    /** What an absent figure shows as. */
    public static final String NONE = "–";

    private static final long MB = 1_000_000L;
    private static final long GB = 1_000_000_000L;

    private Display() {
    }

    /**
     * {@code value} to {@code figures} significant figures, thousands separated, without exponent or trailing
     * zeros: 88982.196 to 4 is "88,980", 0.000005850012 is "0.00000585", 21.405634744889 is "21.41".
     *
     * @throws IllegalArgumentException when {@code figures} is below 1
     */
    public static String significant(BigDecimal value, int figures) {
        if (figures < 1) throw new IllegalArgumentException("significant figures must be at least 1, got " + figures);
        if (value == null) return NONE;
        if (value.signum() == 0) return "0";
        BigDecimal rounded = value.round(new MathContext(figures, RoundingMode.HALF_EVEN)).stripTrailingZeros();
        return grouped(rounded);
    }

    /** {@link #significant(BigDecimal, int)} of a double; NaN and infinities show as a dash. */
    public static String significant(double value, int figures) {
        if (Double.isNaN(value) || Double.isInfinite(value)) return NONE;
        // BigDecimal.valueOf uses the double's shortest decimal form, so 0.1 stays 0.1 rather than 0.1000000000000000055...
        return significant(BigDecimal.valueOf(value), figures);
    }

    /** An amount of money in US dollars to 4 significant figures: "$0.001321"; "-$0.5" below zero. */
    public static String usd(BigDecimal amount) {
        if (amount == null) return NONE;
        String figure = significant(amount.abs(), FIGURES);
        return amount.signum() < 0 ? "-$" + figure : "$" + figure;
    }

    /** An amount to 4 significant figures, without a currency sign, for a column whose heading names the currency. */
    public static String amount(BigDecimal amount) {
        return significant(amount, FIGURES);
    }

    /** A rate (tasks/s, events/s, MB/s) or any other measured figure to 4 significant figures. */
    public static String rate(double perSecond) {
        return significant(perSecond, FIGURES);
    }

    /** A ratio (B ÷ A, a speed ratio) to 4 significant figures. */
    public static String ratio(BigDecimal ratio) {
        return significant(ratio, FIGURES);
    }

    /** A share (0.219834710744) as a percentage to 4 significant figures: "21.98%". */
    public static String share(double fraction) {
        if (Double.isNaN(fraction) || Double.isInfinite(fraction)) return NONE;
        return percent(BigDecimal.valueOf(fraction).movePointRight(2));
    }

    /** {@link #share(double)} of a BigDecimal fraction. */
    public static String share(BigDecimal fraction) {
        return fraction == null ? NONE : percent(fraction.movePointRight(2));
    }

    /** A figure that is already a percentage (16.667) to 4 significant figures: "16.67%". */
    public static String percent(BigDecimal percent) {
        return percent == null ? NONE : significant(percent, FIGURES) + "%";
    }

    /** GB-seconds to 3 decimals, thousands separated: "2.225", "163.951". */
    public static String gbSeconds(BigDecimal gbSeconds) {
        if (gbSeconds == null) return NONE;
        return grouped(gbSeconds.setScale(3, RoundingMode.HALF_EVEN));
    }

    /** A count, exact, thousands separated: "59,974". */
    public static String count(long count) {
        return String.format(Locale.ROOT, "%,d", count);
    }

    /** A count that may be absent. */
    public static String count(Long count) {
        return count == null ? NONE : count(count.longValue());
    }

    /**
     * Bytes, exact and thousands separated, with MB or GB (decimal, as the report's MB/s) to 4 significant
     * figures from one MB up: "14,421,678 bytes (14.42 MB)", "512 bytes".
     */
    public static String bytes(long bytes) {
        String exact = count(bytes) + (bytes == 1 ? " byte" : " bytes");
        long magnitude = Math.abs(bytes);
        if (magnitude >= GB) return exact + " (" + significant(BigDecimal.valueOf(bytes).movePointLeft(9), FIGURES) + " GB)";
        if (magnitude >= MB) return exact + " (" + significant(BigDecimal.valueOf(bytes).movePointLeft(6), FIGURES) + " MB)";
        return exact;
    }

    /**
     * A duration in milliseconds, in ms below one second and in s from there, to 4 significant figures:
     * "131 ms", "0.25 ms", "12.35 s".
     */
    public static String duration(double ms) {
        if (Double.isNaN(ms) || Double.isInfinite(ms)) return NONE;
        if (Math.abs(ms) < 1000) return significant(ms, FIGURES) + " ms";
        return significant(BigDecimal.valueOf(ms).movePointLeft(3), FIGURES) + " s";
    }

    /** {@link #duration(double)} of a whole number of milliseconds that may be absent (a percentile of no values). */
    public static String duration(Long ms) {
        return ms == null ? NONE : duration(ms.doubleValue());
    }

    /** A duration given in seconds (a run's window): "674 ms", "12.5 s". */
    public static String seconds(double seconds) {
        if (Double.isNaN(seconds) || Double.isInfinite(seconds)) return NONE;
        return duration(BigDecimal.valueOf(seconds).movePointRight(3).doubleValue());
    }

    private static String grouped(BigDecimal value) {
        DecimalFormat format = new DecimalFormat("#,##0", DecimalFormatSymbols.getInstance(Locale.ROOT));
        format.setRoundingMode(RoundingMode.UNNECESSARY);
        format.setMinimumFractionDigits(Math.max(0, value.scale()));
        format.setMaximumFractionDigits(Math.max(0, value.scale()));
        return format.format(value);
    }
}
