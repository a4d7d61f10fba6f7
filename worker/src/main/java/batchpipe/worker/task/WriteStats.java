package batchpipe.worker.task;

import batchpipe.common.table.CallTimer;
import batchpipe.common.table.TableCall;

import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Supplier;

/**
 * Times one task's DynamoDB calls. Its totals (the record's {@code ddbWrite*} fields) count the write
 * calls only, as they always have; every call, reads included, also goes to the invocation's
 * {@link InvocationLedger}, which keeps each latency by {@link TableCall} for the report's per-call view.
 */
public final class WriteStats implements CallTimer {
    /** Where each timed call goes besides the totals: (call, microseconds). */
    public interface CallSink {
        CallSink NONE = (call, micros) -> { };

        void timed(TableCall call, long micros);
    }

    private final AtomicLong calls = new AtomicLong();
    private final AtomicLong totalMicros = new AtomicLong();
    private final AtomicLong maxMicros = new AtomicLong();
    private final CallSink sink;

    /** A task whose calls nobody keeps beyond its own totals. */
    public WriteStats() {
        this(CallSink.NONE);
    }

    public WriteStats(CallSink sink) {
        this.sink = sink;
    }

    @Override
    public <T> T time(TableCall call, Supplier<T> work) {
        long start = System.nanoTime();
        try {
            return work.get();
        } finally {
            long micros = (System.nanoTime() - start) / 1_000;
            if (call.write()) {
                calls.incrementAndGet();
                totalMicros.addAndGet(micros);
                maxMicros.accumulateAndGet(micros, Math::max);
            }
            sink.timed(call, micros);
        }
    }

    /** Write calls made so far. */
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
