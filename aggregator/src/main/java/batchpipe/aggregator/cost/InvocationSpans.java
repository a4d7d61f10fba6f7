package batchpipe.aggregator.cost;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.WorkerInvocation;

import java.util.Collection;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run's worker invocations as its task records describe them, folded one record at a time: one small
 * {@link Span} per request id (a record without one, the dead-letter recorder's, is an invocation of its
 * own), so what is held grows with the invocations (a batch of tasks each), not with the records.
 */
public final class InvocationSpans {
    private final Map<String, Span> byKey = new LinkedHashMap<>();

    /**
     * One invocation: the first of its records' {@link WorkerInvocation} (the machine it ran on), its
     * tasks, and the times they bound.
     */
    public static final class Span {
        private final String key;
        private final WorkerInvocation invocation;
        private int tasks;
        private boolean cold;
        private long firstStart = Long.MAX_VALUE, lastFinish = Long.MIN_VALUE, initMs;
        private long firstTimedStart = Long.MAX_VALUE, lastTimedFinish = Long.MIN_VALUE;

        private Span(String key, WorkerInvocation invocation) {
            this.key = key;
            this.invocation = invocation;
        }

        private void add(TaskRecord t) {
            tasks++;
            firstStart = Math.min(firstStart, t.startedAt());
            lastFinish = Math.max(lastFinish, t.finishedAt());
            if (t.invocation().cold()) {
                cold = true;
                if (t.invocation().initMs() != null) initMs = Math.max(initMs, t.invocation().initMs());
            }
            if (t.startedAt() > 0) firstTimedStart = Math.min(firstTimedStart, t.startedAt());
            if (t.finishedAt() > 0) lastTimedFinish = Math.max(lastTimedFinish, t.finishedAt());
        }

        /** The request id, or {@code no-request-id:<taskId>} for a record that names none. */
        public String key() {
            return key;
        }

        /** The first record's invocation fields. */
        public WorkerInvocation invocation() {
            return invocation;
        }

        public int tasks() {
            return tasks;
        }

        public long firstStart() {
            return firstStart;
        }

        public long lastFinish() {
            return lastFinish;
        }

        /** Whether one of its records says its instance started cold. */
        public boolean cold() {
            return cold;
        }

        /** The longest init duration its cold records state; 0 when none is. */
        public long initMs() {
            return initMs;
        }

        /** The first startedAt after the epoch; {@code Long.MAX_VALUE} when no record has one. */
        public long firstTimedStart() {
            return firstTimedStart;
        }

        /** The last finishedAt after the epoch; {@code Long.MIN_VALUE} when no record has one. */
        public long lastTimedFinish() {
            return lastTimedFinish;
        }
    }

    public static InvocationSpans of(List<TaskRecord> tasks) {
        InvocationSpans spans = new InvocationSpans();
        tasks.forEach(spans::add);
        return spans;
    }

    public void add(TaskRecord task) {
        String requestId = task.invocation().requestId();
        String key = requestId != null && !requestId.isBlank() ? requestId : "no-request-id:" + task.taskId();
        byKey.computeIfAbsent(key, k -> new Span(k, task.invocation())).add(task);
    }

    /** In the order their first records came. */
    public Collection<Span> spans() {
        return Collections.unmodifiableCollection(byKey.values());
    }
}
