package batchpipe.common.task;

import java.time.Instant;

/** One unit of work on the tasks queue; the message body is its JSON form (see {@link TaskCodec}). */
public sealed interface Task permits ScanTask, HashTask {
    int VERSION = 1;

    String runId();

    String taskId();

    Instant enqueuedAt();

    TaskKind kind();
}
