package batchpipe.common.task;

import java.time.Instant;
import java.util.List;

/** Scan one S3 object of JSON lines and summarise it. */
public record ScanTask(String runId, String taskId, Instant enqueuedAt, String bucket, String key,
                       List<String> countBy, ScanMatch match) implements Task {
    public static final List<String> DEFAULT_COUNT_BY = List.of("level", "status");

    public ScanTask {
        countBy = List.copyOf(countBy);
    }

    @Override
    public TaskKind kind() {
        return TaskKind.SCAN;
    }
}
