package batchpipe.worker.task;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WriteTimes;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.InvalidTaskException;
import batchpipe.common.task.NotATaskException;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.worker.batch.ReceiveCount;
import batchpipe.worker.batch.SentTimestamp;
import batchpipe.worker.hash.HashExecutor;
import batchpipe.worker.record.CountByForRecord;
import batchpipe.worker.record.TaskBooks;
import batchpipe.worker.scan.ScanExecutor;
import batchpipe.worker.scan.ScanResult;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;

import java.time.Clock;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One message, start to finish: decode, skip if already recorded, run, record. Returns whether the
 * message may be deleted (true) or must come back / go to the dead-letter queue (false).
 *
 * <ul>
 *   <li>not a task at all, or a task of a run that has no run record: false, so after maxReceiveCount
 *       SQS moves it to the DLQ, whose recorder hands it to the poison queue;</li>
 *   <li>a task that can never succeed: recorded {@code rejected}, true (no retry);</li>
 *   <li>a transient failure: false (retried), its error kept beside the task; on the last allowed
 *       receive it is first recorded {@code failed} with the error, so the run's books stay complete;</li>
 *   <li>success: recorded {@code done}, true.</li>
 * </ul>
 * Whatever this cannot finish on a message's last receive (a crash, a timeout, a record or count that
 * could not be written) is finished by the dead-letter recorder, which records and counts every task
 * that reaches the dead-letter queue.
 */
public final class TaskProcessor {
    private static final StructuredLog LOG = StructuredLog.of(TaskProcessor.class);

    private final TaskCodec codec;
    private final TaskBooks books;
    private final ScanExecutor scans;
    private final HashExecutor hashes;
    private final int maxReceiveCount;
    private final Clock clock;

    public TaskProcessor(TaskCodec codec, TaskBooks books, ScanExecutor scans, HashExecutor hashes,
                         int maxReceiveCount, Clock clock) {
        this.codec = codec;
        this.books = books;
        this.scans = scans;
        this.hashes = hashes;
        this.maxReceiveCount = maxReceiveCount;
        this.clock = clock;
    }

    /**
     * @param ledger where the invocation keeps this task's DynamoDB calls and any run it completes, which
     *               the invocation announces at its end (so a true answer still waits for that)
     */
    public boolean process(SQSMessage message, Invocation invocation, TaskMetrics metrics, InvocationLedger ledger) {
        Instant startedAt = clock.instant();
        int attempt = receiveCount(message);
        Task task;
        Integer shard;
        try {
            TaskCodec.TaskMessage decoded = codec.decodeMessage(message.getBody());
            task = decoded.task();
            shard = decoded.progressShard();
        } catch (NotATaskException e) {
            StructuredLog.withContext(Map.of("messageId", message.getMessageId()), () -> {
                LOG.warn("message is not a task; failing it so it reaches the dead-letter queue", "attempt", attempt, "reason", e.getMessage());
                return null;
            });
            return false;
        } catch (InvalidTaskException e) {
            return StructuredLog.withContext(identifiers(e.runId(), e.taskId(), message), () -> {
                LOG.warn("task rejected", "reason", e.getMessage());
                metrics.task(e.kind(), "rejected", 0);
                return recordQuietly(finalRecord(e.runId(), e.taskId(), e.kind(), null, TaskStatus.REJECTED, e.getMessage(),
                        startedAt, attempt, invocation, null, message), e.progressShard(), ledger.statsFor(e.runId()), ledger, message);
            });
        }
        return StructuredLog.withContext(identifiers(task.runId(), task.taskId(), message),
                () -> run(task, shard, message, invocation, metrics, startedAt, attempt, ledger));
    }

    private static Map<String, String> identifiers(String runId, String taskId, SQSMessage message) {
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("runId", runId);
        ids.put("taskId", taskId);
        ids.put("messageId", message.getMessageId());
        return ids;
    }

    private boolean run(Task task, Integer shard, SQSMessage message, Invocation invocation, TaskMetrics metrics, Instant startedAt, int attempt,
                        InvocationLedger ledger) {
        WriteStats writes = ledger.statsFor(task.runId());
        try {
            if (!books.runExists(task.runId(), writes)) {
                // Nothing could count or report it: fail it, so it reaches the dead-letter queue (and from
                // there the poison queue) instead of leaving a record that no run will ever read.
                LOG.warn("task of a run that has no run record; failing it so it reaches the dead-letter queue", "attempt", attempt);
                return false;
            }
            Optional<TaskRecord> earlier = books.records().find(task.runId(), task.taskId(), writes);
            if (earlier.isPresent()) {
                // A redelivery of a finished task: change nothing, only finish its bookkeeping.
                ProgressShards.Count count = books.count(task.runId(), task.taskId(), shard, earlier.get().status(), writes);
                closed(task.runId(), task.taskId(), count, ledger, message);
                LOG.info("task already recorded; redelivery ignored");
                return true;
            }
        } catch (RuntimeException e) {
            LOG.error("could not read the task record; will retry", e);
            return false;
        }
        Outcome outcome;
        try {
            outcome = execute(task, writes);
        } catch (PermanentTaskException e) {
            LOG.warn("task rejected", "reason", e.getMessage());
            metrics.task(task.kind().wireName(), "rejected", elapsedMs(startedAt));
            return recordQuietly(finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(), TaskStatus.REJECTED,
                    e.getMessage(), startedAt, attempt, invocation, null, message), shard, writes, ledger, message);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (attempt >= maxReceiveCount) {
                LOG.error("task failed on its last allowed receive; recording it before it goes to the dead-letter queue", e,
                        "attempt", attempt);
                metrics.task(task.kind().wireName(), "failed", elapsedMs(startedAt));
                recordQuietly(finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(), TaskStatus.FAILED,
                        reason, startedAt, attempt, invocation, null, message), shard, writes, ledger, message);
            } else {
                LOG.warn("task failed transiently; it will be retried", "attempt", attempt, "reason", reason);
                metrics.task(task.kind().wireName(), "retried", elapsedMs(startedAt));
                keepAttemptError(task, attempt, reason, writes);
            }
            return false;
        }
        TaskRecord record = finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(),
                TaskStatus.DONE, null, startedAt, attempt, invocation, outcome, message);
        TaskBooks.Recorded recorded = record(record, shard, writes, ledger, message);
        if (recorded == null) {
            keepAttemptError(task, attempt, "the task ran but its record could not be written or counted", writes);
            return false;
        }
        if (recorded.written()) {
            metrics.task(task.kind().wireName(), "done", record.durationMs());
            if (outcome.scan() != null) metrics.scanned(outcome.scan().events(), outcome.scan().bytes());
            if (outcome.hash() != null) metrics.hashed(outcome.hash().hashes());
            LOG.info("task done", "durationMs", record.durationMs(), "attempt", attempt);
        } else {
            // Another delivery of the same message (SQS is at-least-once) recorded the task first: this
            // run's work is discarded and the task counted once, with the status that delivery stored.
            metrics.task(task.kind().wireName(), "duplicate", record.durationMs());
            LOG.info("duplicate delivery: another delivery recorded this task first; counted once with its status",
                    "storedStatus", recorded.status().wireName(), "attempt", attempt);
        }
        return true;
    }

    /** Best effort: the error only helps explain a task that later dead-letters. */
    private void keepAttemptError(Task task, int attempt, String reason, WriteStats writes) {
        try {
            books.records().recordAttemptError(task.runId(), task.taskId(), attempt, reason, clock.millis(), writes);
        } catch (RuntimeException e) {
            LOG.warn("could not keep the attempt's error", "reason", e.getMessage());
        }
    }

    private long elapsedMs(Instant startedAt) {
        return clock.instant().toEpochMilli() - startedAt.toEpochMilli();
    }

    /** What the task did: a scan's outcome or a hash batch's, the other null. */
    private record Outcome(ScanOutcome scan, HashOutcome hash) {
    }

    private Outcome execute(Task task, WriteStats writes) throws Exception {
        return switch (task) {
            case ScanTask scan -> {
                ScanResult stats = scans.execute(scan);
                CountByForRecord.Fitted countBy = CountByForRecord.fit(stats.countBy(), stats.approximate());
                yield new Outcome(new ScanOutcome(scan.bucket(), scan.key(), stats.events(), stats.malformed(), stats.malformedLines(),
                        stats.oversizedLines(), stats.bytes(), stats.compressedBytes(), countBy.countBy(), countBy.distinct(),
                        countBy.truncated() ? countBy.other() : null,
                        // only when some path outgrew exact counting, so exact records (and their item size) stay as they were
                        countBy.exact() ? null : countBy.accuracy(),
                        stats.matches()), null);
            }
            case HashTask hash -> new Outcome(null, new HashOutcome(hashes.execute(hash, books.layout(hash.runId(), writes), writes), hash.cost()));
        };
    }

    private TaskRecord finalRecord(String runId, String taskId, String kind, Instant enqueuedAt, TaskStatus status,
                                   String reason, Instant startedAt, int attempt, Invocation invocation, Outcome outcome,
                                   SQSMessage message) {
        long finishedAt = clock.instant().toEpochMilli();
        return TaskRecord.builder().runId(runId).taskId(taskId).kind(kind).status(status).reason(reason)
                .enqueuedAt(enqueuedAt == null ? null : enqueuedAt.toEpochMilli()).startedAt(startedAt.toEpochMilli())
                .finishedAt(finishedAt).attempt(attempt)
                .invocation(invocation.forRecord()).scan(outcome == null ? null : outcome.scan())
                .hash(outcome == null ? null : outcome.hash()).sentAt(SentTimestamp.of(message)).build();
    }

    /** Writes the final record; a failure to write it is transient, so the message comes back. */
    private boolean recordQuietly(TaskRecord record, Integer shard, WriteStats writes, InvocationLedger ledger, SQSMessage message) {
        return record(record, shard, writes, ledger, message) != null;
    }

    /** The task is recorded and counted: the invocation says so, and announces the run at its end if this completed it. */
    private static void closed(String runId, String taskId, ProgressShards.Count count, InvocationLedger ledger, SQSMessage message) {
        ledger.taskClosed(runId);
        if (count.runComplete()) {
            ledger.runCompleted(new InvocationLedger.Completion(runId, taskId, count.completionClaimedBy(), message.getMessageId()));
        }
    }

    /** Writes and counts the final record; null when that failed (the message must come back). */
    private TaskBooks.Recorded record(TaskRecord record, Integer shard, WriteStats writes, InvocationLedger ledger, SQSMessage message) {
        try {
            // The write of the record itself is one more DynamoDB call of this task (timed in the invocation record).
            TaskBooks.Recorded recorded = books.close(record.withWrites(new WriteTimes(writes.calls() + 1, writes.totalMs(), writes.maxMs())), shard, writes);
            closed(record.runId(), record.taskId(), recorded.count(), ledger, message);
            return recorded;
        } catch (RuntimeException e) {
            LOG.error("could not write or count the task record; the message will be retried", e);
            return null;
        }
    }

    /** A message without a readable count is taken as a first delivery: never as a last one. */
    static int receiveCount(SQSMessage message) {
        return ReceiveCount.of(message, 1);
    }
}
