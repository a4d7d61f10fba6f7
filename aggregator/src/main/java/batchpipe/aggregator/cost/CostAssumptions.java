package batchpipe.aggregator.cost;

import java.math.BigDecimal;

/**
 * What the cost model cannot measure and is told instead; every report lists these.
 *
 * @param runsPerMonth      runs a month, for the monthly projection
 * @param messageBytes      the size assumed for one task message when counting SQS 64 KB request chunks
 *                          (the producer's messages are a few hundred bytes; the task records do not
 *                          carry their message's size)
 * @param arm64SpeedRatio   task duration on arm64 ÷ on x86_64, for projecting one architecture from the
 *                          other; null: measure it in the run if it ran on both, else assume equal durations
 */
public record CostAssumptions(int runsPerMonth, int messageBytes, SpeedRatio arm64SpeedRatio) {
    public static final int DEFAULT_RUNS_PER_MONTH = 30;
    public static final int DEFAULT_MESSAGE_BYTES = 1_024;

    /** @param source where the ratio was measured, said in the report next to every projection it drives */
    public record SpeedRatio(BigDecimal arm64OverX86, String source) {
        public SpeedRatio {
            if (arm64OverX86 == null || arm64OverX86.signum() <= 0) {
                throw new IllegalArgumentException("the arm64 speed ratio must be a number > 0, got " + arm64OverX86);
            }
        }
    }

    public CostAssumptions {
        if (runsPerMonth < 1) throw new IllegalArgumentException("runs per month must be >= 1, got " + runsPerMonth);
        if (messageBytes < 1) throw new IllegalArgumentException("message bytes must be >= 1, got " + messageBytes);
    }

    public static CostAssumptions defaults() {
        return new CostAssumptions(DEFAULT_RUNS_PER_MONTH, DEFAULT_MESSAGE_BYTES, null);
    }

    public CostAssumptions withRunsPerMonth(int runs) {
        return new CostAssumptions(runs, messageBytes, arm64SpeedRatio);
    }

    public CostAssumptions withArm64SpeedRatio(SpeedRatio ratio) {
        return new CostAssumptions(runsPerMonth, messageBytes, ratio);
    }
}
