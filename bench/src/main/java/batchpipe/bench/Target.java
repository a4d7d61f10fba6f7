package batchpipe.bench;

import java.util.Locale;

/**
 * One target of the Performance issue: a measured ratio against a limit it must reach (at least) or
 * stay under (at most). A target whose figures could not be taken (a peer is missing) carries a reason
 * instead and is neither held nor missed.
 */
public record Target(String name, String measured, Double ratio, Bound bound, double limit, String skipReason, String goalText) {

    public enum Bound {
        AT_LEAST(">="), AT_MOST("<=");

        final String symbol;

        Bound(String symbol) {
            this.symbol = symbol;
        }
    }

    public enum Result { PASS, MISS, SKIPPED }

    public static Target atLeast(String name, String measured, double ratio, double limit) {
        return new Target(name, measured, ratio, Bound.AT_LEAST, limit, null, null);
    }

    public static Target atMost(String name, String measured, double ratio, double limit) {
        return new Target(name, measured, ratio, Bound.AT_MOST, limit, null, null);
    }

    public static Target skipped(String name, Bound bound, double limit, String reason) {
        return new Target(name, "-", null, bound, limit, reason, null);
    }

    /** A yes/no target (it succeeds or not), such as a scan finishing under a heap limit. */
    public static Target check(String name, String measured, boolean ok, String goal) {
        return new Target(name, measured, ok ? 1.0 : 0.0, Bound.AT_LEAST, 1.0, null, goal);
    }

    public Result result() {
        if (ratio == null || ratio.isNaN()) return Result.SKIPPED;
        boolean holds = bound == Bound.AT_LEAST ? ratio >= limit : ratio <= limit;
        return holds ? Result.PASS : Result.MISS;
    }

    /** The target as written: {@code >= 2.50x}. */
    public String goal() {
        if (goalText != null) return goalText;
        return String.format(Locale.ROOT, "%s %.2fx", bound.symbol, limit);
    }

    /** How far the ratio is from its limit, as a share of the limit: +10% is 10% better than needed, -10% short. */
    public String margin() {
        if (result() == Result.SKIPPED) return skipReason == null ? "not measured" : skipReason;
        if (goalText != null) return "";
        double better = bound == Bound.AT_LEAST ? ratio / limit - 1 : limit / ratio - 1;
        return String.format(Locale.ROOT, "%+.0f%%", better * 100);
    }

    public String ratioText() {
        if (goalText != null && result() != Result.SKIPPED) return result() == Result.PASS ? "yes" : "no";
        return ratio == null || ratio.isNaN() ? "-" : String.format(Locale.ROOT, "%.2fx", ratio);
    }
}
