package batchpipe.worker.deadletter;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.task.InvalidTaskException;
import batchpipe.common.task.NotATaskException;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.worker.batch.ReceiveCount;
import batchpipe.worker.record.TaskBooks;
import batchpipe.worker.record.TaskRecords;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent.SQSMessage;

import java.time.Clock;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Finishes the books of every task that reached the tasks dead-letter queue, so that its run ends.
 * A message lands there after maxReceiveCount receives whatever happened on them: the task failed
 * every time, its worker crashed or timed out on the last one (no {@code failed} record then), or it
 * even ran and was recorded but its count never went through. For each message, exactly once however
 * often it is delivered here:
 * <ol>
 *   <li>a task of a known run without a final record is recorded {@code failed}, with the receive count
 *       and the last error a worker kept for it ({@code attempt#} item), if any;</li>
 *   <li>its final record (whatever its status) is marked {@code deadLetteredAt};</li>
 *   <li>it is counted on the run, which completes the run when it was the last task.</li>
 * </ol>
 * Every step is conditional or idempotent, like the worker's. A message that is not a task, or whose
 * run has no run record, cannot be recorded against any run: it goes to the poison queue. A step that
 * fails (a throttled write) fails the message, which comes back here after the queue's visibility
 * timeout.
 */
public final class DeadLetterRecorder {
    private static final StructuredLog LOG = StructuredLog.of(DeadLetterRecorder.class);

    private final TaskCodec codec;
    private final TaskBooks books;
    private final TaskRecords records;
    private final PoisonQueue poison;
    private final Clock clock;

    public DeadLetterRecorder(TaskCodec codec, TaskBooks books, PoisonQueue poison, Clock clock) {
        this.codec = codec;
        this.books = books;
        this.records = books.records();
        this.poison = poison;
        this.clock = clock;
    }

    /** The partial batch response: the ids of the messages whose books could not be finished now. */
    public SQSBatchResponse record(List<SQSMessage> messages) {
        List<SQSBatchResponse.BatchItemFailure> failures = new ArrayList<>();
        for (SQSMessage message : messages == null ? List.<SQSMessage>of() : messages) {
            boolean finished;
            try {
                finished = recordOne(message);
            } catch (RuntimeException e) {
                LOG.error("could not finish a dead-lettered message's books; it will come back", e, "messageId", message.getMessageId());
                finished = false;
            }
            if (!finished) failures.add(new SQSBatchResponse.BatchItemFailure(message.getMessageId()));
        }
        return new SQSBatchResponse(failures);
    }

    private boolean recordOne(SQSMessage message) {
        int receives = receiveCount(message);
        DeadLetteredTask task;
        try {
            TaskCodec.TaskMessage decodedMessage = codec.decodeMessage(message.getBody());
            Task decoded = decodedMessage.task();
            task = new DeadLetteredTask(decoded.runId(), decoded.taskId(), decoded.kind().wireName(),
                    decoded.enqueuedAt() == null ? null : decoded.enqueuedAt().toEpochMilli(), decodedMessage.progressShard());
        } catch (NotATaskException e) {
            poison.send(message, "not a task: " + e.getMessage());
            LOG.warn("dead-lettered message is not a task; moved to the poison queue", "messageId", message.getMessageId(),
                    "reason", e.getMessage());
            return true;
        } catch (InvalidTaskException e) {
            // It names its run and task: it belongs to the run's books like any other task.
            task = new DeadLetteredTask(e.runId(), e.taskId(), e.kind(), null, e.progressShard());
        }
        Map<String, String> ids = new LinkedHashMap<>();
        ids.put("runId", task.runId());
        ids.put("taskId", task.taskId());
        ids.put("messageId", message.getMessageId());
        DeadLetteredTask named = task;
        return StructuredLog.withContext(ids, () -> finish(message, named.runId(), named.taskId(), named.kind(), named.enqueuedAt(), named.shard(), receives));
    }

    /** What a dead-lettered message names, whether it decoded as a task or was refused as an invalid one. */
    private record DeadLetteredTask(String runId, String taskId, String kind, Long enqueuedAt, Integer shard) {
    }

    private boolean finish(SQSMessage message, String runId, String taskId, String kind, Long enqueuedAt, Integer shard, int receives) {
        if (!books.runExists(runId, CallTimer.UNTIMED)) {
            poison.send(message, "run " + runId + " has no run record: task " + taskId + " cannot be recorded against it");
            LOG.warn("dead-lettered task of a run that has no run record; moved to the poison queue");
            return true;
        }
        // nobody reports on the recorder's own writes: its records have no invocation to attribute them to
        CallTimer writes = CallTimer.UNTIMED;
        Optional<TaskRecord> existing = records.find(runId, taskId, writes);
        TaskStatus status;
        if (existing.isPresent()) {
            status = existing.get().status();
            records.markDeadLettered(runId, taskId, receives, clock.millis());
            announceIfComplete(runId, taskId, books.count(runId, taskId, shard, status, writes));
        } else {
            String reason = "reached the dead-letter queue (SQS receive count " + receives + "); "
                    + records.lastAttemptError(runId, taskId).map(e -> "last error: " + e)
                    .orElse("no delivery recorded an error (the worker crashed, timed out or could not write)");
            TaskBooks.Recorded recorded = books.close(failedRecord(runId, taskId, kind, enqueuedAt, reason, receives), shard, writes);
            status = recorded.status();
            announceIfComplete(runId, taskId, recorded.count());
            // close counted it; the mark comes after, and a crash before it only leaves the mark
            // to the next delivery of this message.
            records.markDeadLettered(runId, taskId, receives, clock.millis());
        }
        LOG.info("dead-lettered task recorded and counted", "status", status.wireName(), "receives", receives);
        return true;
    }

    /** The recorder writes no invocation records, so it announces a run it completed at once. */
    private void announceIfComplete(String runId, String taskId, ProgressShards.Count count) {
        if (count.runComplete()) books.announceCompletion(runId, taskId, count.completionClaimedBy(), CallTimer.UNTIMED);
    }

    private TaskRecord failedRecord(String runId, String taskId, String kind, Long enqueuedAt, String reason, int receives) {
        long now = clock.millis();
        // The task never finished anywhere: it is recorded when its books are closed, taking no time.
        return TaskRecord.builder().runId(runId).taskId(taskId).kind(kind == null ? "unknown" : kind).status(TaskStatus.FAILED)
                .reason(reason).enqueuedAt(enqueuedAt).startedAt(now).finishedAt(now).attempt(receives)
                .invocation(WorkerInvocation.NONE).recordedBy("dead-letter recorder").build();
    }

    /** 0 when SQS gave no count: the reason then says "receive count 0" rather than inventing one. */
    static int receiveCount(SQSMessage message) {
        return ReceiveCount.of(message, 0);
    }
}
