package batchpipe.worker.record;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressShards;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.function.Supplier;

/**
 * Closes a task's books, in the one order that loses nothing: its final record is written once
 * ({@link TaskRecords}), then it is counted once on the run ({@link ProgressShards}), then, when that
 * count completed the run, the aggregator is told ({@link CompletionNotifier}). A crash between two steps
 * leaves the message unacknowledged; its redelivery finds the record and finishes the rest, since each
 * step is idempotent.
 */
public final class TaskBooks {
    private final TaskRecords records;
    private final ProgressShards progress;
    private final CompletionNotifier completions;

    public TaskBooks(TaskRecords records, ProgressShards progress, CompletionNotifier completions) {
        this.records = records;
        this.progress = progress;
        this.completions = completions;
    }

    /** The books of one runs table, telling the completions queue when a run completes. */
    public static TaskBooks of(DynamoDbClient dynamoDb, Supplier<SqsClient> sqs, String table, String completionsQueueUrl) {
        return new TaskBooks(new TaskRecords(dynamoDb, table), new ProgressShards(dynamoDb, table),
                new CompletionNotifier(dynamoDb, sqs, table, completionsQueueUrl));
    }

    public TaskRecords records() {
        return records;
    }

    /** Whether the run has a run record: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId) {
        return progress.runExists(runId);
    }

    /** What {@link #close} did: wrote the record, or found one an earlier delivery wrote, and its stored status. */
    public record Recorded(boolean written, TaskStatus status) {
    }

    /**
     * Writes the final record unless one exists, then counts the task with the status that is stored.
     * When an earlier (or a concurrent duplicate) delivery had already written it, nothing changes except
     * finishing its bookkeeping, and the answer says so with the stored status.
     */
    public Recorded close(TaskRecord record, CallTimer timer) {
        boolean written = records.putIfAbsent(record, timer);
        TaskStatus status = written ? record.status()
                : records.find(record.runId(), record.taskId()).map(TaskRecord::status).orElseThrow(() -> new IllegalStateException(
                        "task " + record.taskId() + " of run " + record.runId() + ": the put found a record that a consistent read then did not"));
        count(record.runId(), record.taskId(), status, timer);
        return new Recorded(written, status);
    }

    /**
     * Counts a recorded task once; when that completes the run, notifies the aggregator (once, see
     * {@link CompletionNotifier}).
     *
     * @throws IllegalStateException when the task cannot be counted (no run record or shard): the message must not be acknowledged
     */
    public void count(String runId, String taskId, TaskStatus status, CallTimer timer) {
        ProgressShards.Count count = progress.countOnce(runId, taskId, status, timer);
        if (count.runComplete()) completions.notifyOnce(runId, taskId, count.completionClaimedBy(), timer);
    }
}
