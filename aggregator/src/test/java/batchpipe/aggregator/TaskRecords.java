package batchpipe.aggregator;

import batchpipe.common.run.CountAccuracy;
import batchpipe.common.run.HashOutcome;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunRecord;
import batchpipe.common.run.ScanOutcome;
import batchpipe.common.run.TaskRecord;
import batchpipe.common.run.TaskStatus;
import batchpipe.common.run.WorkerInvocation;
import batchpipe.common.run.WriteTimes;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/** Typed task and run records for tests, built field by field: only what a test states differs from an empty record. */
public final class TaskRecords {
    private TaskRecords() {
    }

    public static Builder task(String taskId, String kind) {
        return new Builder(taskId, kind);
    }

    /** A run record of run r1 created at {@code createdAt}, with one shard. */
    public static RunRecord run(String label, long createdAt, long scan, long hash, String spec) {
        return new RunRecord("r1", label, spec, new Planned(scan, hash, scan + hash), 0, createdAt, "running", 1, null, null,
                List.of(), null, null);
    }

    public static final class Builder {
        private String runId = "r1";
        private final String taskId;
        private final String kind;
        private TaskStatus status = TaskStatus.DONE;
        private String reason;
        private Long enqueuedAt;
        private long startedAt, finishedAt;
        private Integer attempt;
        private String requestId, functionName, architecture;
        private Integer memoryMb, threads;
        private Double vcpuShare;
        private Boolean coldStart;
        private Long initMs;
        private WriteTimes writes;
        private String bucket, key;
        private Long events, malformed, bytes, compressedBytes;
        private Map<String, Map<String, Long>> countBy;
        private Map<String, CountAccuracy> countByAccuracy;
        private Long hashes;
        private int cost;
        private Integer progressShard;

        private Builder(String taskId, String kind) {
            this.taskId = taskId;
            this.kind = kind;
        }

        public Builder run(String runId) {
            this.runId = runId;
            return this;
        }

        public Builder status(TaskStatus status, String reason) {
            this.status = status;
            this.reason = reason;
            return this;
        }

        public Builder times(Long enqueuedAt, long startedAt, long finishedAt) {
            this.enqueuedAt = enqueuedAt;
            this.startedAt = startedAt;
            this.finishedAt = finishedAt;
            return this;
        }

        public Builder attempt(int attempt) {
            this.attempt = attempt;
            return this;
        }

        public Builder invocation(String requestId, String functionName) {
            this.requestId = requestId;
            this.functionName = functionName;
            return this;
        }

        public Builder platform(String architecture, Integer memoryMb) {
            this.architecture = architecture;
            this.memoryMb = memoryMb;
            return this;
        }

        public Builder workers(int threads, double vcpuShare) {
            this.threads = threads;
            this.vcpuShare = vcpuShare;
            return this;
        }

        public Builder cold(boolean coldStart, Long initMs) {
            this.coldStart = coldStart;
            this.initMs = initMs;
            return this;
        }

        public Builder writes(long calls, double msTotal, double msMax) {
            this.writes = new WriteTimes(calls, msTotal, msMax);
            return this;
        }

        public Builder object(String bucket, String key) {
            this.bucket = bucket;
            this.key = key;
            return this;
        }

        public Builder scanned(long events, long malformed, long bytes, long compressedBytes) {
            this.events = events;
            this.malformed = malformed;
            this.bytes = bytes;
            this.compressedBytes = compressedBytes;
            return this;
        }

        public Builder countBy(String path, Map<String, Long> values) {
            if (countBy == null) countBy = new TreeMap<>();
            countBy.put(path, new TreeMap<>(values));
            return this;
        }

        public Builder countByAccuracy(String path, CountAccuracy accuracy) {
            if (countByAccuracy == null) countByAccuracy = new TreeMap<>();
            countByAccuracy.put(path, accuracy);
            return this;
        }

        public Builder hashed(long hashes, int cost) {
            this.hashes = hashes;
            this.cost = cost;
            return this;
        }

        /** The progress shard its message named (a run planned page by page). */
        public Builder progressShard(int shard) {
            this.progressShard = shard;
            return this;
        }

        public TaskRecord build() {
            WorkerInvocation invocation = new WorkerInvocation(requestId, functionName, null, memoryMb, architecture, threads, vcpuShare,
                    coldStart, initMs);
            ScanOutcome scan = events == null && bucket == null && countBy == null ? null
                    : new ScanOutcome(bucket, key, orZero(events), orZero(malformed), null, 0, orZero(bytes), orZero(compressedBytes),
                    countBy, null, null, countByAccuracy, null);
            HashOutcome hash = hashes == null ? null : new HashOutcome(hashes, cost);
            return TaskRecord.builder().runId(runId).taskId(taskId).kind(kind).status(status).reason(reason).enqueuedAt(enqueuedAt)
                    .startedAt(startedAt).finishedAt(finishedAt).attempt(attempt).invocation(invocation)
                    .writes(writes).scan(scan).hash(hash).progressShard(progressShard).build();
        }

        private static long orZero(Long value) {
            return value == null ? 0 : value;
        }
    }
}
