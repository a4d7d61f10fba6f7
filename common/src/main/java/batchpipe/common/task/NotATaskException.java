package batchpipe.common.task;

/**
 * A message body that cannot be recorded against any run (not JSON, or without runId/taskId).
 * Such a message is reported as failed so that SQS moves it to the dead-letter queue.
 */
public final class NotATaskException extends Exception {
    public NotATaskException(String message) {
        super(message);
    }
}
