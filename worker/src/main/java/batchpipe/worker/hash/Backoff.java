package batchpipe.worker.hash;

import java.util.concurrent.ThreadLocalRandom;

/**
 * Exponential backoff with full jitter (sleep a random time in [0, min(cap, base * 2^attempt)]), the
 * scheme that spreads retries of throttled writers best.
 */
public record Backoff(long baseMs, long capMs, int maxAttempts) {
    public static final Backoff DYNAMODB = new Backoff(25, 2_000, 10);

    public long delayMs(int attempt) {
        long ceiling = Math.min(capMs, baseMs << Math.min(attempt, 20));
        return ThreadLocalRandom.current().nextLong(ceiling + 1);
    }

    public void sleep(int attempt) throws InterruptedException {
        Thread.sleep(delayMs(attempt));
    }
}
