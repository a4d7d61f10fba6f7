package batchpipe.common.table;

/**
 * The DynamoDB calls a worker makes for its tasks, by what they are for: the report shows each one's
 * latency on its own, since a conditional put of a 3 KB record and a read of one small item are not
 * one figure.
 */
public enum TableCall {
    /** GetItem of the run record's shard count, once per run per worker instance. */
    RUN_RECORD_READ("runRecordRead", false),
    /** GetItem of a task's final record (is it done already?). */
    TASK_RECORD_READ("taskRecordRead", false),
    /** The conditional PutItem of a task's final record. */
    TASK_RECORD_PUT("taskRecordPut", true),
    /** UpdateItem adding a task to its progress shard. */
    PROGRESS_UPDATE("progressUpdate", true),
    /** GetItem of a progress shard, when the task was counted before. */
    PROGRESS_READ("progressRead", false),
    /** UpdateItem adding a complete shard to the run record. */
    RUN_SHARD_UPDATE("runShardUpdate", true),
    /** The conditional UpdateItem claiming a run's completion notice. */
    COMPLETION_CLAIM("completionClaim", true),
    /** One BatchWriteItem of up to 25 bcrypt hashes. */
    HASH_BATCH_WRITE("hashBatchWrite", true),
    /** PutItem of a failed delivery's error. */
    ATTEMPT_ERROR_PUT("attemptErrorPut", true);

    private final String wireName;
    private final boolean write;

    TableCall(String wireName, boolean write) {
        this.wireName = wireName;
        this.write = write;
    }

    /** The name in invocation records and reports. */
    public String wireName() {
        return wireName;
    }

    /** Whether it consumes write capacity (reads are left out of a task's write figures). */
    public boolean write() {
        return write;
    }

    public static TableCall fromWireName(String name) {
        for (TableCall call : values()) {
            if (call.wireName.equals(name)) return call;
        }
        return null;
    }
}
