package batchpipe.aggregator.delivery;

import java.util.List;

/**
 * Where a run's report files are: {@code s3://bucket/prefix} and the full key of each file.
 *
 * @param prefix ends in {@code <runId>/}
 */
public record ReportLocation(String bucket, String prefix, List<String> keys) {
    public ReportLocation {
        keys = List.copyOf(keys);
    }

    public String uri() {
        return "s3://" + bucket + "/" + prefix;
    }

    public String key(String fileName) {
        return prefix + fileName;
    }
}
