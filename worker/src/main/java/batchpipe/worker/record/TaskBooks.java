package batchpipe.worker.record;

import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.table.CallTimer;
import batchpipe.common.table.ProgressCounter;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartitions;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.util.function.Supplier;

/**
 * Closes a task's books, in the one order that loses nothing: its final record is written once
 * ({@link TaskRecords}), then it is counted once on the run ({@link ProgressShards}), then, when that
 * count completed the run, the aggregator is told ({@link CompletionNotifier}): at once by the dead-letter
 * recorder, at the end of the invocation by the worker ({@code InvocationBooks}). A crash between two
 * steps leaves the message unacknowledged; its redelivery finds the record and finishes the rest, since
 * each step is idempotent.
 */
public final class TaskBooks {
    private final TaskRecords records;
    private final ProgressCounter progress;
    private final CompletionNotifier completions;

    public TaskBooks(TaskRecords records, ProgressCounter progress, CompletionNotifier completions) {
        this.records = records;
        this.progress = progress;
        this.completions = completions;
    }

    /** The books of one runs table, telling the completions queue when a run completes. */
    public static TaskBooks of(DynamoDbClient dynamoDb, Supplier<SqsClient> sqs, String table, String completionsQueueUrl) {
        ProgressCounter progress = new ProgressCounter(dynamoDb, table);
        // a task's items are read or written only once its run's layout is read (runExists, close), so this reads nothing
        return new TaskBooks(new TaskRecords(dynamoDb, table, progress::cachedPartitionsOf), progress,
                new CompletionNotifier(dynamoDb, sqs, table, completionsQueueUrl));
    }

    public TaskRecords records() {
        return records;
    }

    /** Whether the run has a run record: a task of an unknown run can be neither counted nor reported. */
    public boolean runExists(String runId, CallTimer timer) {
        return progress.runExists(runId, timer);
    }

    /**
     * What {@link #close} did: wrote the record, or found one an earlier delivery wrote; its stored status;
     * and what counting it found (whether the run is now complete).
     */
    public record Recorded(boolean written, TaskStatus status, ProgressShards.Count count) {
    }

    /**
     * Writes the final record unless one exists, then counts the task with the status that is stored.
     * When an earlier (or a concurrent duplicate) delivery had already written it, nothing changes except
     * finishing its bookkeeping, and the answer says so with the stored status.
     * <p>
     * The record is written naming {@code shard}, the shard that counts it, so that whoever groups tasks by
     * progress shard afterwards (the aggregator's estimate of the shard updates' write units) groups them as
     * they were counted: in a run planned page by page that is the page's shard, not the task id's hash.
     *
     * @param shard the progress shard the task's message names; null for runs planned in one go
     */
    public Recorded close(TaskRecord unstamped, Integer shard, CallTimer timer) {
        TaskRecord record = unstamped.withProgressShard(shard);
        progress.partitionsOf(record.runId(), timer); // where the record goes: read once per run, if not yet
        boolean written = records.putIfAbsent(record, timer);
        TaskStatus status = written ? record.status()
                : records.find(record.runId(), record.taskId(), timer).map(TaskRecord::status).orElseThrow(() -> new IllegalStateException(
                        "task " + record.taskId() + " of run " + record.runId() + ": the put found a record that a consistent read then did not"));
        return new Recorded(written, status, count(record.runId(), record.taskId(), shard, status, timer));
    }

    /**
     * Counts a recorded task once. When the answer says the run is complete, the caller must
     * {@link #announceCompletion} before it acknowledges the message.
     *
     * @throws IllegalStateException when the task cannot be counted (no run record or shard): the message must not be acknowledged
     */
    public ProgressShards.Count count(String runId, String taskId, Integer shard, TaskStatus status, CallTimer timer) {
        return progress.countOnce(runId, taskId, shard, status, timer);
    }

    /** Where the run's items are (read once per run, by {@link #runExists}). */
    public RunPartitions layout(String runId, CallTimer timer) {
        return progress.partitionsOf(runId, timer);
    }

    /** Tells the aggregator that the run is complete, once (see {@link CompletionNotifier}). */
    public void announceCompletion(String runId, String taskId, String claimedBy, CallTimer timer) {
        completions.notifyOnce(runId, taskId, claimedBy, timer);
    }
}
