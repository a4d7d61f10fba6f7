package batchpipe.producer;

import batchpipe.common.log.StructuredLog;
import batchpipe.common.run.PlanCursor;
import batchpipe.common.run.PlanResult;
import batchpipe.common.run.RunRecord;
import batchpipe.common.table.ProgressShards;
import batchpipe.common.table.RunPartitions;
import batchpipe.common.task.Task;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskIds;
import batchpipe.common.task.TaskLimits;
import batchpipe.common.run.RunHost;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.plan.PartitionSizing;
import batchpipe.producer.plan.PlanPager;
import batchpipe.producer.plan.RemainingTime;
import batchpipe.producer.run.CompletionNotice;
import batchpipe.producer.run.RunStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.AttributeValue;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;

import java.time.Clock;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.LongConsumer;
import java.util.function.LongFunction;

/**
 * Plans a run and enqueues it page by page, in an order that never leaves a task unaccounted for:
 * validate (done by the parser), check that every source can be listed (a missing bucket fails here,
 * before anything is written), list until the run's partition count is settled, claim the run id with
 * the run record, then for each page write its progress shards, send its tasks and move the run's
 * planning cursor past it. When the invocation's time runs low, it sends a continuation and the next
 * invocation resumes at the cursor ({@link #resume}); the last page's invocation ends planning, which
 * fixes the shard count, after which the run can complete. The Lambda handler and the CLI both call this.
 */
public final class RunPlanner {
    private static final StructuredLog LOG = StructuredLog.of(RunPlanner.class);

    /** Which resources a planner reaches, and the worker concurrency its run's layout is sized for. */
    public record Settings(String table, String tasksQueueUrl, String planningQueueUrl, String completionsQueueUrl,
                           TaskLimits limits, int sendCallsInFlight, int workerMaxConcurrency, long planningMarginMs) {
        /** The template's default WorkerMaxConcurrency, for callers that do not name one. */
        public static final int DEFAULT_WORKER_MAX_CONCURRENCY = 5;
        /** Time kept back at the end of an invocation: a page takes a LIST and 100 SendMessageBatch calls, about a second. */
        public static final long DEFAULT_PLANNING_MARGIN_MS = 30_000;
    }

    private final PlanPager pager;
    private final ObjectLister lister;
    private final RunStore runs;
    private final TaskPublisher publisher;
    private final TaskCodec codec;
    private final RunSpecParser parser;
    private final PlanningContinuations continuations;
    private final CompletionNotice completions;
    private final int workerMaxConcurrency;
    private final long planningMarginMs;
    private final Clock clock;
    /** The machine the run's functions run on, at a given time (epoch ms); null on Lambda, where nothing is recorded. */
    private final LongFunction<RunHost> host;

    /** The planner the producer Lambda and the CLI both use, wired to the given clients and resources. */
    public static RunPlanner create(S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb, Settings settings) {
        ObjectLister lister = new ObjectLister(s3);
        RunStore runs = new RunStore(dynamoDb, settings.table());
        return new RunPlanner(lister, runs, new TaskPublisher(sqs, settings.tasksQueueUrl(), settings.sendCallsInFlight(), 8, 50),
                new TaskCodec(settings.limits()), new PlanningContinuations(sqs, settings.planningQueueUrl()),
                new CompletionNotice(runs, sqs, settings.completionsQueueUrl()), settings.workerMaxConcurrency(),
                settings.planningMarginMs(), Clock.systemUTC());
    }

    /** A planner without a planning queue, for callers that plan in one go with no time limit. */
    public static RunPlanner create(S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb, String table, String tasksQueueUrl,
                                    String completionsQueueUrl, TaskLimits limits, int sendCallsInFlight) {
        return create(s3, sqs, dynamoDb, new Settings(table, tasksQueueUrl, null, completionsQueueUrl, limits, sendCallsInFlight,
                Settings.DEFAULT_WORKER_MAX_CONCURRENCY, Settings.DEFAULT_PLANNING_MARGIN_MS));
    }

    public RunPlanner(ObjectLister lister, RunStore runs, TaskPublisher publisher, TaskCodec codec, PlanningContinuations continuations,
                      CompletionNotice completions, int workerMaxConcurrency, long planningMarginMs, Clock clock) {
        this(lister, runs, publisher, codec, continuations, completions, workerMaxConcurrency, planningMarginMs, clock, null);
    }

    private RunPlanner(ObjectLister lister, RunStore runs, TaskPublisher publisher, TaskCodec codec, PlanningContinuations continuations,
                       CompletionNotice completions, int workerMaxConcurrency, long planningMarginMs, Clock clock, LongFunction<RunHost> host) {
        this.host = host;
        this.pager = new PlanPager(lister);
        this.lister = lister;
        this.runs = runs;
        this.publisher = publisher;
        this.codec = codec;
        this.parser = new RunSpecParser(codec.limits());
        this.continuations = continuations;
        this.completions = completions;
        this.workerMaxConcurrency = workerMaxConcurrency;
        this.planningMarginMs = planningMarginMs;
        this.clock = clock;
    }

    /**
     * This planner, recording in each run record the machine the run's functions run on ({@link RunHost}), as
     * {@code host} gives it when the run is created: for the local runtime, whose durations are this machine's.
     */
    public RunPlanner recordingHost(LongFunction<RunHost> runHost) {
        return new RunPlanner(lister, runs, publisher, codec, continuations, completions, workerMaxConcurrency, planningMarginMs, clock,
                runHost);
    }

    /** Plans a run in one go, with no time limit (the CLI). */
    public PlanResult plan(RunSpec spec, LongConsumer enqueueProgress) {
        return plan(spec, enqueueProgress, RemainingTime.UNLIMITED);
    }

    /**
     * Plans a new run, handing the rest to a continuation when less than the margin of {@code remaining} is left,
     * or when planning fails once the run is recorded (with a planning queue; without one, the CLI's case, the run
     * is marked enqueue-failed and the failure thrown). A failure before the run is recorded is thrown: nothing
     * was written, so the invocation may be retried (docs/SCALE.md, "The first invocation").
     */
    public PlanResult plan(RunSpec spec, LongConsumer enqueueProgress, RemainingTime remaining) {
        return plan(spec, enqueueProgress, remaining, null);
    }

    /**
     * {@link #plan(RunSpec, LongConsumer, RemainingTime)} for the Lambda invocation {@code requestId}
     * (null: none, the CLI's case). A retry of that invocation, which Lambda makes with the same request
     * id, goes on with the run the first attempt recorded, from its cursor, instead of planning a second
     * run; if the first attempt died before recording it, the retry records it under the id it chose.
     */
    public PlanResult plan(RunSpec spec, LongConsumer enqueueProgress, RemainingTime remaining, String requestId) {
        long started = System.nanoTime();
        Instant now = clock.instant();
        String runId = spec.runId() != null ? spec.runId() : TaskIds.newRunId(now);
        for (RunSpec.ScanSource source : spec.scan()) lister.checkListable(source);
        if (requestId != null) {
            String claimed = runs.claimForInvocation(requestId, runId, now.toEpochMilli());
            if (!claimed.equals(runId)) {
                runId = claimed;
                Map<String, AttributeValue> stored = runs.read(claimed);
                if (stored != null) {
                    RunRecord run = RunRecord.fromItem(stored);
                    if ("enqueue-failed".equals(run.status())) {
                        // marked so that a person sees it; planning it further would hide that
                        throw new IllegalStateException("run " + claimed + ", recorded by an earlier attempt of this invocation, cannot"
                                + " complete (" + run.enqueueError() + "); it is not planned again");
                    }
                    LOG.info("a retry of the invocation that recorded this run: planning goes on from its cursor", "runId", claimed,
                            "requestId", requestId);
                    return resume(claimed, remaining);
                }
            }
        }

        // List ahead until the partition count cannot change any more (or everything is listed).
        List<PlanPager.Page> ahead = new ArrayList<>();
        PlanCursor listed = PlanCursor.START;
        while (!PlanPager.done(spec, listed) && !PartitionSizing.settled(load(spec, listed.scan()), workerMaxConcurrency)
                && remaining.millis() >= planningMarginMs) {
            PlanPager.Page page = pager.page(runId, spec, listed, clock.instant());
            ahead.add(page);
            listed = page.next();
        }
        int partitions = PartitionSizing.partitions(load(spec, listed.scan()), workerMaxConcurrency);
        RunSpec.HashSpec hash = spec.hash();
        RunRecord record = RunRecord.planning(runId, spec.label(), spec.toJson(),
                hash == null ? 0 : (long) hash.batches() * hash.batchSize(), now.toEpochMilli(), partitions, spec.sweepId());
        runs.create(host == null ? record : record.withHost(host.apply(now.toEpochMilli())));
        RunPartitions layout = RunPartitions.of(runId, partitions);
        LOG.info("run recorded; planning it page by page", "runId", runId, "partitions", partitions, "pagesListedAhead", ahead.size());
        long[] sent = {0};
        PlanCursor[] reached = {PlanCursor.START}; // the cursor as the last page committed left it
        try {
            PlanCursor cursor = PlanCursor.START;
            LongConsumer progress = n -> enqueueProgress.accept(sent[0] + n);
            for (PlanPager.Page page : ahead) {
                if (!commit(runId, layout, cursor, page, progress)) return superseded(runId, cursor, started);
                sent[0] += page.tasks().size();
                cursor = page.next();
                reached[0] = cursor;
            }
            return planFrom(runId, spec, layout, cursor, remaining, started, sent, reached, progress);
        } catch (RuntimeException e) {
            // The run exists: planning goes on from its cursor where continuations do, with the planning queue's
            // redelivery, its last-receive mark and its dead-letter queue, rather than ending here.
            if (continuations.configured()) {
                try {
                    continuations.send(runId);
                    LOG.error("planning failed in the run's first invocation; handed to the planning queue, to go on from the"
                            + " run's cursor", e, "runId", runId, "enqueued", sent[0]);
                    return new PlanResult(runId, reached[0].scan(), reached[0].hash(), sent[0], seconds(started), true);
                } catch (RuntimeException handOver) {
                    e.addSuppressed(handOver);
                }
            }
            // Leave a mark a person can see: the run cannot complete, and its id cannot be planned again.
            runs.markEnqueueFailed(runId, sent[0], e.getMessage());
            throw e;
        }
    }

    /**
     * Goes on planning a run where its cursor is: the continuation's work. A continuation that comes
     * after planning has ended (a redelivery) only makes sure a run that the end of planning completed
     * was announced.
     */
    public PlanResult resume(String runId, RemainingTime remaining) {
        long started = System.nanoTime();
        Map<String, AttributeValue> stored = runs.read(runId);
        if (stored == null) throw new IllegalArgumentException("continuation of run " + runId + ", which has no run record");
        RunRecord run = RunRecord.fromItem(stored);
        if (run.planning() == null) {
            LOG.info("continuation after planning ended; nothing left to plan", "runId", runId);
            announceIfComplete(runId, stored);
            return new PlanResult(runId, run.planned().scan(), run.planned().hash(), run.enqueued() == null ? 0 : run.enqueued(), seconds(started));
        }
        RunSpec spec = parser.parse(run.spec());
        long[] sent = {0};
        return planFrom(runId, spec, run.layout(), run.planning(), remaining, started, sent, new PlanCursor[] {run.planning()}, n -> { });
    }

    private PlanResult planFrom(String runId, RunSpec spec, RunPartitions layout, PlanCursor cursor, RemainingTime remaining,
                                long started, long[] sent, PlanCursor[] reached, LongConsumer progress) {
        while (!PlanPager.done(spec, cursor)) {
            if (remaining.millis() < planningMarginMs) {
                continuations.send(runId);
                LOG.info("planning continues in another invocation", "runId", runId, "page", cursor.page(),
                        "scan", cursor.scan(), "hash", cursor.hash());
                return new PlanResult(runId, cursor.scan(), cursor.hash(), sent[0], seconds(started), true);
            }
            PlanPager.Page page = pager.page(runId, spec, cursor, clock.instant());
            if (!commit(runId, layout, cursor, page, progress)) return superseded(runId, cursor, started);
            sent[0] += page.tasks().size();
            cursor = page.next();
            reached[0] = cursor;
        }
        Map<String, AttributeValue> finished = runs.finishPlanning(runId, cursor, clock.millis());
        if (finished == null) return superseded(runId, cursor, started);
        LOG.info("run planned and enqueued", "runId", runId, "scan", cursor.scan(), "hash", cursor.hash(), "pages", cursor.page(),
                "shards", cursor.shards());
        announceIfComplete(runId, finished);
        return new PlanResult(runId, cursor.scan(), cursor.hash(), cursor.scan() + cursor.hash(), seconds(started));
    }

    /**
     * One page, in the order that survives a crash anywhere: its shards' planned counts, its tasks, then
     * the cursor. A crash before the cursor moves leaves the page to be planned again from the same
     * cursor: the same keys, the same shards, the same counts; only its messages go out twice, and a task
     * delivered twice is recorded and counted once, as any SQS redelivery is.
     *
     * @return false when another invocation had moved the cursor past the page: this one must stop
     */
    private boolean commit(String runId, RunPartitions layout, PlanCursor at, PlanPager.Page page, LongConsumer progress) {
        if (!page.tasks().isEmpty()) {
            List<String> taskIds = page.tasks().stream().map(Task::taskId).toList();
            runs.planPageShards(layout, page.shards(), page.shards().planned(taskIds));
            List<TaskPublisher.Message> messages = new ArrayList<>(page.tasks().size());
            for (Task task : page.tasks()) {
                messages.add(new TaskPublisher.Message(task.taskId(), codec.encode(task, page.shards().shardOf(task.taskId()))));
            }
            publisher.publish(messages, progress);
        }
        return runs.advance(runId, at.page(), page.next());
    }

    private PlanResult superseded(String runId, PlanCursor cursor, long started) {
        LOG.warn("another invocation planned this page first; this one stops", "runId", runId, "page", cursor.page());
        return new PlanResult(runId, cursor.scan(), cursor.hash(), 0, seconds(started), true);
    }

    private void announceIfComplete(String runId, Map<String, AttributeValue> runRecord) {
        ProgressShards.Count count = ProgressShards.completion(runRecord);
        if (count.runComplete()) completions.announce(runId, count.completionClaimedBy(), clock.millis());
    }

    /** The write load known so far: the scan tasks listed, the spec's hash batches (known whole from the start). */
    private static PartitionSizing.Load load(RunSpec spec, long scanTasks) {
        RunSpec.HashSpec hash = spec.hash();
        return hash == null ? new PartitionSizing.Load(scanTasks, !spec.scan().isEmpty(), 0, 0, 0)
                : new PartitionSizing.Load(scanTasks, !spec.scan().isEmpty(), hash.batches(), (long) hash.batches() * hash.batchSize(), hash.cost());
    }

    private static double seconds(long startNanos) {
        return Math.round((System.nanoTime() - startNanos) / 1e6) / 1000.0;
    }
}
