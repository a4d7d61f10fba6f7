package batchpipe.worker.task;

/** The task can never succeed (a missing object, corrupt data, access denied): record it as rejected. */
public final class PermanentTaskException extends Exception {
    public PermanentTaskException(String message, Throwable cause) {
        super(message, cause);
    }
}
