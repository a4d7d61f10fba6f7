package batchpipe.producer;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.task.HashTask;
import batchpipe.common.task.ScanTask;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.run.Planned;
import batchpipe.common.run.RunHost;
import batchpipe.common.run.RunRecord;
import batchpipe.common.table.ProgressShards;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.run.RunStore;
import batchpipe.producer.spec.RunSpec;
import batchpipe.common.json.Json;

import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * Plans a run and enqueues it, in an order that never leaves a task unaccounted for: validate (done by
 * the parser), list every source (a missing bucket fails here, before anything is written), claim the
 * run id with the run record, write the progress shards, then send. The Lambda handler and the CLI both
 * call this.
 */
public final class RunPlanner {
    private static final StructuredLog LOG = StructuredLog.of(RunPlanner.class);

    private final ObjectLister lister;
    private final RunStore runs;
    private final TaskPublisher publisher;
    private final TaskCodec codec;
    private final Clock clock;
    /** The machine the run's functions run on, at a given time (epoch ms); null on Lambda, where nothing is recorded. */
    private final LongFunction<RunHost> host;

    /** The planner the producer Lambda and the CLI both use, wired to the given clients and resources. */
    public static RunPlanner create(S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb, String table, String tasksQueueUrl,
                                    TaskLimits limits, int sendCallsInFlight) {
        return new RunPlanner(new ObjectLister(s3), new RunStore(dynamoDb, table),
                new TaskPublisher(sqs, tasksQueueUrl, sendCallsInFlight, 8, 50), new TaskCodec(limits), Clock.systemUTC());
    }

    public RunPlanner(ObjectLister lister, RunStore runs, TaskPublisher publisher, TaskCodec codec, Clock clock) {
        this(lister, runs, publisher, codec, clock, null);
    }

    private RunPlanner(ObjectLister lister, RunStore runs, TaskPublisher publisher, TaskCodec codec, Clock clock, LongFunction<RunHost> host) {
        this.host = host;
        this.lister = lister;
        this.runs = runs;
        this.publisher = publisher;
        this.codec = codec;
        this.clock = clock;
    }

    /**
     * This planner, recording in each run record the machine the run's functions run on ({@link RunHost}), as
     * {@code host} gives it when the run is created: for the local runtime, whose durations are this machine's.
     */
    public RunPlanner recordingHost(LongFunction<RunHost> runHost) {
        return new RunPlanner(lister, runs, publisher, codec, clock, runHost);
    }

    /** The producer's response. */
    public record PlanResult(String runId, long plannedScan, long plannedHash, long enqueued, double seconds) {
        public Map<String, Object> toJson() {
            Map<String, Object> json = new LinkedHashMap<>();
            json.put("runId", runId);
            json.put("planned", Map.of("scan", plannedScan, "hash", plannedHash));
            json.put("enqueued", enqueued);
            json.put("seconds", seconds);
            return json;
        }
    }

    public PlanResult plan(RunSpec spec, Map<String, Object> specJson, LongConsumer enqueueProgress) {
        long started = System.nanoTime();
        Instant now = clock.instant();
        String runId = spec.runId() != null ? spec.runId() : TaskIds.newRunId(now);
        List<Task> tasks = new ArrayList<>();
        Set<String> seen = new LinkedHashSet<>();
        for (RunSpec.ScanSource source : spec.scan()) {
            for (String key : lister.list(source)) {
                String taskId = TaskIds.scanTaskId(runId, source.bucket(), key);
                if (seen.add(taskId)) { // two sources overlapping on one object scan it once
                    tasks.add(new ScanTask(runId, taskId, now, source.bucket(), key, source.countBy(), source.match()));
                }
            }
        }
        long plannedScan = tasks.size();
        RunSpec.HashSpec hash = spec.hash();
        if (hash != null) {
            for (int batch = 1; batch <= hash.batches(); batch++) {
                long start = (long) (batch - 1) * hash.batchSize() + 1;
                tasks.add(new HashTask(runId, TaskIds.hashTaskId(batch), now, hash.cost(), hash.batchSize(), hash.prefix(), start, null));
            }
        }
        long plannedHash = tasks.size() - plannedScan;
        int shards = ProgressShards.shardCount(tasks.size());

        RunRecord record = RunRecord.planned(runId, spec.label(), Json.write(specJson), new Planned(plannedScan, plannedHash, tasks.size()),
                hash == null ? 0 : (long) hash.batches() * hash.batchSize(), now.toEpochMilli(), shards, spec.sweepId());
        runs.create(host == null ? record : record.withHost(host.apply(now.toEpochMilli())));
        if (tasks.isEmpty()) {
            LOG.info("run planned with nothing to do", "runId", runId);
            return new PlanResult(runId, 0, 0, 0, seconds(started));
        }
        runs.createProgressShards(runId, tasks.stream().map(Task::taskId).toList(), shards);

        List<TaskPublisher.Message> messages = new ArrayList<>(tasks.size());
        for (Task task : tasks) {
            messages.add(new TaskPublisher.Message(task.taskId(), codec.encode(task)));
        }
        AtomicLong sent = new AtomicLong();
        long enqueued;
        try {
            enqueued = publisher.publish(messages, n -> {
                sent.set(n);
                enqueueProgress.accept(n);
            });
        } catch (RuntimeException e) {
            // Leave a mark a person can see: the run cannot complete, and its id cannot be planned again.
            runs.markEnqueueFailed(runId, sent.get(), e.getMessage());
            throw e;
        }
        runs.markEnqueued(runId, enqueued, clock.millis());
        LOG.info("run planned and enqueued", "runId", runId, "scan", plannedScan, "hash", plannedHash, "enqueued", enqueued);
        return new PlanResult(runId, plannedScan, plannedHash, enqueued, seconds(started));
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e6) / 1000.0;
    }
}
