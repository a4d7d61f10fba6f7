package batchpipe.aggregator.cost;

import java.math.BigDecimal;
import java.math.MathContext;
import java.math.RoundingMode;

/** Exact money and unit arithmetic: amounts are summed exactly and rounded only when written. */
public final class Numbers {
    /** Decimal places of every amount written to a report. */
    public static final int SCALE = 12;
    /** Precision of divisions whose result does not terminate (shares, per-unit figures). */
    public static final MathContext DIVISION = new MathContext(20, RoundingMode.HALF_EVEN);
    private static final BigDecimal MB_MS_PER_GB_SECOND = BigDecimal.valueOf(1_024_000);

    private Numbers() {
    }

    /** billed ms × memory MB ÷ 1,024,000 (1,024 MB a GB, 1,000 ms a second): exact, as 1,024,000 = 2^13 × 5^3. */
    public static BigDecimal gbSeconds(long billedMs, long memoryMb) {
        return BigDecimal.valueOf(billedMs).multiply(BigDecimal.valueOf(memoryMb)).divide(MB_MS_PER_GB_SECOND);
    }

    /** An amount as written: 12 decimal places, half-even, without trailing zeros. */
    public static BigDecimal written(BigDecimal amount) {
        BigDecimal rounded = amount.setScale(SCALE, RoundingMode.HALF_EVEN).stripTrailingZeros();
        return rounded.signum() == 0 ? BigDecimal.ZERO : rounded;
    }

    public static BigDecimal divide(BigDecimal a, BigDecimal b) {
        return a.divide(b, DIVISION);
    }

    /** ceil(a / b) for a >= 0, b > 0. */
    public static long ceilDiv(long a, long b) {
        return Math.floorDiv(a + b - 1, b);
    }

    public static String plain(BigDecimal d) {
        return d.stripTrailingZeros().toPlainString();
    }
}
