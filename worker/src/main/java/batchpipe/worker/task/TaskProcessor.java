package batchpipe.worker.task;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.InvalidTaskException;
import batchpipe.common.task.NotATaskException;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.worker.batch.ReceiveCount;
import batchpipe.worker.hash.HashExecutor;
import batchpipe.worker.record.CountByForRecord;
import batchpipe.worker.record.TaskRecordStore;
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
    private final TaskRecordStore records;
    private final ScanExecutor scans;
    private final HashExecutor hashes;
    private final int maxReceiveCount;
    private final Clock clock;

    public TaskProcessor(TaskCodec codec, TaskRecordStore records, ScanExecutor scans, HashExecutor hashes,
                         int maxReceiveCount, Clock clock) {
        this.codec = codec;
        this.records = records;
        this.scans = scans;
        this.hashes = hashes;
        this.maxReceiveCount = maxReceiveCount;
        this.clock = clock;
    }

    public boolean process(SQSMessage message, Invocation invocation, TaskMetrics metrics) {
        Instant startedAt = clock.instant();
        int attempt = receiveCount(message);
        Task task;
        try {
            task = codec.decode(message.getBody());
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
                return recordQuietly(finalRecord(e.runId(), e.taskId(), e.kind(), null, "rejected", e.getMessage(),
                        startedAt, attempt, invocation), new WriteStats(), message);
            });
        }
        return StructuredLog.withContext(identifiers(task.runId(), task.taskId(), message),
                () -> run(task, message, invocation, metrics, startedAt, attempt));
    }

    private static Map<String, String> identifiers(String runId, String taskId, SQSMessage message) {
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("runId", runId);
        ids.put("taskId", taskId);
        ids.put("messageId", message.getMessageId());
        return ids;
    }

    private boolean run(Task task, SQSMessage message, Invocation invocation, TaskMetrics metrics, Instant startedAt, int attempt) {
        WriteStats writes = new WriteStats();
        try {
            if (!records.runExists(task.runId())) {
                // Nothing could count or report it: fail it, so it reaches the dead-letter queue (and from
                // there the poison queue) instead of leaving a record that no run will ever read.
                LOG.warn("task of a run that has no run record; failing it so it reaches the dead-letter queue", "attempt", attempt);
                return false;
            }
            Optional<Map<String, Object>> earlier = records.find(task.runId(), task.taskId());
            if (earlier.isPresent()) {
                // A redelivery of a finished task: change nothing, only finish its bookkeeping.
                records.countOnce(task.runId(), task.taskId(), (String) earlier.get().get("status"), writes);
                LOG.info("task already recorded; redelivery ignored");
                return true;
            }
        } catch (RuntimeException e) {
            LOG.error("could not read the task record; will retry", e);
            return false;
        }
        Map<String, Object> result;
        try {
            result = execute(task, writes);
        } catch (PermanentTaskException e) {
            LOG.warn("task rejected", "reason", e.getMessage());
            metrics.task(task.kind().wireName(), "rejected", elapsedMs(startedAt));
            return recordQuietly(finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(), "rejected",
                    e.getMessage(), startedAt, attempt, invocation), writes, message);
        } catch (Exception e) {
            if (e instanceof InterruptedException) Thread.currentThread().interrupt();
            String reason = e.getClass().getSimpleName() + ": " + e.getMessage();
            if (attempt >= maxReceiveCount) {
                LOG.error("task failed on its last allowed receive; recording it before it goes to the dead-letter queue", e,
                        "attempt", attempt);
                metrics.task(task.kind().wireName(), "failed", elapsedMs(startedAt));
                recordQuietly(finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(), "failed",
                        reason, startedAt, attempt, invocation), writes, message);
            } else {
                LOG.warn("task failed transiently; it will be retried", "attempt", attempt, "reason", reason);
                metrics.task(task.kind().wireName(), "retried", elapsedMs(startedAt));
                keepAttemptError(task, attempt, reason);
            }
            return false;
        }
        Map<String, Object> record = finalRecord(task.runId(), task.taskId(), task.kind().wireName(), task.enqueuedAt(),
                "done", null, startedAt, attempt, invocation);
        record.putAll(result);
        TaskRecordStore.Recorded recorded = record(record, writes);
        if (recorded == null) {
            keepAttemptError(task, attempt, "the task ran but its record could not be written or counted");
            return false;
        }
        if (recorded.written()) {
            metrics.task(task.kind().wireName(), "done", (Long) record.get("durationMs"));
            if (result.get("events") instanceof Long events) metrics.scanned(events, (Long) result.get("bytes"));
            if (result.get("hashes") instanceof Integer hashed) metrics.hashed(hashed);
            LOG.info("task done", "durationMs", record.get("durationMs"), "attempt", attempt);
        } else {
            // Another delivery of the same message (SQS is at-least-once) recorded the task first: this
            // run's work is discarded and the task counted once, with the status that delivery stored.
            metrics.task(task.kind().wireName(), "duplicate", (Long) record.get("durationMs"));
            LOG.info("duplicate delivery: another delivery recorded this task first; counted once with its status",
                    "storedStatus", recorded.status(), "attempt", attempt);
        }
        return true;
    }

    /** Best effort: the error only helps explain a task that later dead-letters. */
    private void keepAttemptError(Task task, int attempt, String reason) {
        try {
            records.recordAttemptError(task.runId(), task.taskId(), attempt, reason, clock.millis());
        } catch (RuntimeException e) {
            LOG.warn("could not keep the attempt's error", "reason", e.getMessage());
        }
    }

    private long elapsedMs(Instant startedAt) {
        return clock.instant().toEpochMilli() - startedAt.toEpochMilli();
    }

    private Map<String, Object> execute(Task task, WriteStats writes) throws Exception {
        Map<String, Object> result = new LinkedHashMap<>();
        switch (task) {
            case ScanTask scan -> {
                ScanResult stats = scans.execute(scan);
                result.put("bucket", scan.bucket());
                result.put("key", scan.key());
                result.put("events", stats.events());
                result.put("malformed", stats.malformed());
                result.put("malformedLines", stats.malformedLines());
                result.put("oversizedLines", stats.oversizedLines());
                result.put("bytes", stats.bytes());
                result.put("compressedBytes", stats.compressedBytes());
                CountByForRecord.Fitted countBy = CountByForRecord.fit(stats.countBy(), stats.approximate());
                result.put("countBy", countBy.countBy());
                result.put("countByDistinct", countBy.distinct());
                if (countBy.truncated()) result.put("countByOther", countBy.other());
                // only when some path outgrew exact counting, so exact records (and their item size) stay as they were
                if (!countBy.exact()) result.put("countByAccuracy", countBy.accuracyForRecord());
                if (stats.matches() != null) result.put("matches", stats.matches());
            }
            case HashTask hash -> {
                result.put("hashes", hashes.execute(hash, writes));
                result.put("cost", hash.cost());
            }
        }
        return result;
    }

    private Map<String, Object> finalRecord(String runId, String taskId, String kind, Instant enqueuedAt, String status,
                                            String reason, Instant startedAt, int attempt, Invocation invocation) {
        Instant finishedAt = clock.instant();
        Map<String, Object> record = new LinkedHashMap<>();
        record.put("runId", runId);
        record.put("taskId", taskId);
        record.put("kind", kind);
        record.put("status", status);
        if (reason != null) record.put("reason", reason);
        if (enqueuedAt != null) record.put("enqueuedAt", enqueuedAt.toEpochMilli());
        record.put("startedAt", startedAt.toEpochMilli());
        record.put("finishedAt", finishedAt.toEpochMilli());
        record.put("durationMs", finishedAt.toEpochMilli() - startedAt.toEpochMilli());
        record.put("attempt", attempt);
        record.put("requestId", invocation.requestId());
        record.put("functionName", invocation.functionName());
        record.put("functionVersion", invocation.functionVersion());
        record.put("memoryMb", invocation.memoryMb());
        record.put("architecture", invocation.architecture());
        record.put("threads", invocation.threads());
        record.put("vcpuShare", invocation.vcpuShare());
        record.put("coldStart", invocation.coldStart());
        if (invocation.initMs() != null) record.put("initMs", invocation.initMs());
        return record;
    }

    /** Writes the final record; a failure to write it is transient, so the message comes back. */
    private boolean recordQuietly(Map<String, Object> record, WriteStats writes, SQSMessage message) {
        return record(record, writes) != null;
    }

    /** Writes and counts the final record; null when that failed (the message must come back). */
    private TaskRecordStore.Recorded record(Map<String, Object> record, WriteStats writes) {
        try {
            // The write of the record itself is one more DynamoDB call of this task.
            record.put("ddbWriteCalls", writes.calls() + 1);
            record.put("ddbWriteMsTotal", writes.totalMs());
            record.put("ddbWriteMsMax", writes.maxMs());
            return records.recordFinal(record, writes);
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
