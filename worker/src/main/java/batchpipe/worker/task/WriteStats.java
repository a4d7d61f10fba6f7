package batchpipe.worker.task;

import batchpipe.common.table.CallTimer;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * The DynamoDB write calls one task made, with their total and slowest latency: the figure the
 * published Rust-versus-Python DynamoDB comparison measured.
 */
public final class WriteStats implements CallTimer {
    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong totalMicros = new AtomicLong();
    private final AtomicLong maxMicros = new AtomicLong();

    @Override
    public <T> T time(Supplier<T> call) {
        long start = System.nanoTime();
        try {
            return call.get();
        } finally {
            long micros = (System.nanoTime() - start) / 1_000;
            calls.incrementAndGet();
            totalMicros.addAndGet(micros);
            maxMicros.accumulateAndGet(micros, Math::max);
        }
    }

    public long calls() {
        return calls.get();
    }

    public double totalMs() {
        return totalMicros.get() / 1000.0;
    }

    public double maxMs() {
        return maxMicros.get() / 1000.0;
    }
}
