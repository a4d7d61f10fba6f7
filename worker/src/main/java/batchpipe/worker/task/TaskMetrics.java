package batchpipe.worker.task;

import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.model.DimensionSet;
import software.amazon.lambda.powertools.metrics.model.MetricUnit;

import java.util.Map;
import java.util.Queue;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.LongAdder;

/**
 * What one invocation did, gathered from its concurrent messages and published once at its end as
 * CloudWatch EMF metrics: TasksProcessed by kind and status, EventsScanned, BytesScanned,
 * HashesComputed and TaskDuration. Gathering first keeps Powertools' metrics object on one thread.
 */
public final class TaskMetrics {
    private record KindStatus(String kind, String status) {
    }

    private final Map<KindStatus, LongAdder> tasks = new ConcurrentHashMap<>();
    private final LongAdder events = new LongAdder();
    private final LongAdder bytes = new LongAdder();
    private final LongAdder hashes = new LongAdder();
    private final Queue<Long> durationsMs = new ConcurrentLinkedQueue<>();

    public void task(String kind, String status, long durationMs) {
        tasks.computeIfAbsent(new KindStatus(kind == null ? "unknown" : kind, status), k -> new LongAdder()).increment();
        durationsMs.add(durationMs);
    }

    public void scanned(long eventCount, long uncompressedBytes) {
        events.add(eventCount);
        bytes.add(uncompressedBytes);
    }

    public void hashed(long count) {
        hashes.add(count);
    }

    public long tasks(String kind, String status) {
        LongAdder n = tasks.get(new KindStatus(kind, status));
        return n == null ? 0 : n.sum();
    }

    public long events() {
        return events.sum();
    }

    public long hashes() {
        return hashes.sum();
    }

    /** Emits the figures: one EMF document per (kind, status), then one with the totals and durations. */
    public void publish(Metrics metrics) {
        tasks.forEach((key, count) -> metrics.flushMetrics(m -> {
            m.addDimension(DimensionSet.of("kind", key.kind(), "status", key.status()));
            m.addMetric("TasksProcessed", count.sum(), MetricUnit.COUNT);
        }));
        metrics.addMetric("EventsScanned", events.sum(), MetricUnit.COUNT);
        metrics.addMetric("BytesScanned", bytes.sum(), MetricUnit.BYTES);
        metrics.addMetric("HashesComputed", hashes.sum(), MetricUnit.COUNT);
        for (Long duration : durationsMs) {
            metrics.addMetric("TaskDuration", duration, MetricUnit.MILLISECONDS);
        }
        metrics.flush();
    }
}
