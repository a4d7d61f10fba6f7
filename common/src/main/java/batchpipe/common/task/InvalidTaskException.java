package batchpipe.common.task;

import java.util.List;

/**
 * A task that can never succeed (unknown version or kind, a value out of range). It is recorded as
 * {@code rejected} with the reason and not retried.
 */
public final class InvalidTaskException extends Exception {
    private final String runId;
    private final String taskId;
    private final String kind;
    private final Integer progressShard;

    public InvalidTaskException(String runId, String taskId, String kind, List<String> problems) {
        this(runId, taskId, kind, null, problems);
    }

    public InvalidTaskException(String runId, String taskId, String kind, Integer progressShard, List<String> problems) {
        super(String.join("; ", problems));
        this.runId = runId;
        this.taskId = taskId;
        this.kind = kind;
        this.progressShard = progressShard;
    }

    /** The progress shard the message names, when it names a valid one: the task is counted there all the same. */
    public Integer progressShard() {
        return progressShard;
    }

    public String runId() {
        return runId;
    }

    public String taskId() {
        return taskId;
    }

    /** The kind named in the message, or null when it named none. */
    public String kind() {
        return kind;
    }
}
