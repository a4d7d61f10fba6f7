package batchpipe.local.sweep;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.RunReader;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.task.TaskCodec;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.report.RunSummaryItem;
import batchpipe.local.report.SweepReport;
import batchpipe.local.run.RunWatcher;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.enqueue.PlanningContinuations;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.run.CompletionNotice;
import batchpipe.producer.run.RunStore;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

import java.io.PrintStream;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.LongSummaryStatistics;
import java.util.Locale;
import java.util.Map;
import java.util.UUID;

/**
 * The sweep on a deployed stack: each configuration's run is planned by the producer's own code into the
 * stack's table (its run record carries the sweep id), but its task messages are kept rather than sent
 * to the tasks queue, and {@link AliasSweep} delivers them to the configuration's alias. The worker
 * records, counts and completes the run as always; the aggregator reports it; the sweep reads the
 * reports and compares them.
 */
public final class AwsSweep {
    /** What the sweep needs of a configuration's run besides Lambda: planning it, and watching it complete. */
    public interface Runs {
        /** Plans the run in the stack's table and answers its task messages' bodies, which are not sent to the queue. */
        List<String> plan(RunSpec runSpec);

        /** Returns once the run is complete; throws {@link RunWatcher.RunIncompleteException} when it is not within {@code timeout}. */
        void awaitCompletion(String runId, Duration timeout) throws InterruptedException;
    }

    /**
     * How a configuration's run went: its run id and delivery, and when it did not complete (or its tasks
     * could not all be delivered), the configuration to report as failed.
     */
    public record ConfigurationRun(LocalSweep.Configuration configuration, String runId, AliasSweep.Delivery delivery,
                                   SweepReport.Incomplete incomplete) {
    }

    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final String table;
    private final TaskLimits limits;
    private final int concurrency;
    private final PrintStream err;

    /**
     * @param limits      the stack's worker's task limits (its MAX_HASH_COST)
     * @param concurrency the most invocations the sweep runs at once: its workers' concurrency, which the
     *                    planner sizes a run's partitions for
     */
    public AwsSweep(S3Client s3, DynamoDbClient dynamoDb, String table, TaskLimits limits, int concurrency, PrintStream err) {
        this.s3 = s3;
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.limits = limits;
        this.concurrency = concurrency;
        this.err = err;
    }

    /**
     * What one run of the spec has to do: its hash batches, and the objects its scan sources plan (listed
     * as the planner lists them: the suffix, no folder markers or empty objects, at most maxObjects) with
     * their sizes summed.
     */
    public SweepEstimate.Workload workload(RunSpec spec) {
        LongSummaryStatistics objectSizes = new LongSummaryStatistics();
        ObjectLister lister = new ObjectLister(s3);
        for (RunSpec.ScanSource source : spec.scan()) {
            lister.forEachScannable(source, object -> objectSizes.accept(object.size()));
        }
        long scanTasks = objectSizes.getCount(), scanBytes = objectSizes.getSum();
        RunSpec.HashSpec hash = spec.hash();
        return hash == null ? new SweepEstimate.Workload(0, 0, 0, scanTasks, scanBytes)
                : new SweepEstimate.Workload(hash.batches(), hash.batchSize(), hash.cost(), scanTasks, scanBytes);
    }

    /**
     * Every configuration in order (repeats one after another, each a run of its own through a version and
     * alias of its own, so each pays its own cold starts): plan its run, deliver its tasks, and wait up to
     * {@code timeout} from the start of the delivery for it to complete. A run that does not complete, or
     * whose tasks could not be delivered, is answered as {@link SweepReport.Incomplete} and the sweep goes
     * on; so is, at once, a run with a task whose last invocation failed as a whole, which cannot complete,
     * with what the invocations answered. The aliases are removed and the memory put back at the end in any
     * case ({@link AliasSweep#run}).
     */
    public static List<ConfigurationRun> run(AliasSweep aliases, String sweepId, RunSpec sweepSpec,
                                             List<LocalSweep.Configuration> configurations, Runs runs, int concurrency, Duration timeout,
                                             PrintStream err) throws InterruptedException {
        Map<String, LocalSweep.Configuration> byKey = new LinkedHashMap<>();
        for (LocalSweep.Configuration c : configurations) byKey.put(c.key(), c);
        List<AliasSweep.Configuration> aliasConfigurations = configurations.stream()
                .map(c -> new AliasSweep.Configuration(c.key(), c.architecture(), c.memoryMb())).toList();
        return aliases.run(aliasConfigurations, (ac, deliverer) -> {
            LocalSweep.Configuration c = byKey.get(ac.key());
            String runId = c.runId(sweepId);
            double share = c.roundedShare();
            List<String> bodies = runs.plan(c.runSpec(sweepSpec, sweepId));
            long started = System.nanoTime();
            AliasSweep.Delivery delivery;
            try {
                delivery = deliverer.deliver(bodies);
            } catch (IllegalStateException e) {
                String reason = "delivering its " + bodies.size() + " tasks failed: " + e.getMessage();
                err.println("batchpipe sweep: " + c.key() + ": run " + runId + ": " + reason + "; marked failed, going on");
                return new ConfigurationRun(c, runId, null, new SweepReport.Incomplete(c.key(), c.architecture(), c.memoryMb(), c.repeat(), share,
                        concurrency, runId, reason, null));
            }
            if (!delivery.unrecordedBodies().isEmpty()) {
                // Behind a direct Invoke there is no dead-letter queue whose recorder would record these tasks failed, as
                // on the stack's queue: unless the worker recorded them before the invocation failed, the run cannot
                // complete, and waiting out the timeout would only hide why.
                try {
                    runs.awaitCompletion(runId, Duration.ZERO);
                    return new ConfigurationRun(c, runId, delivery, null);
                } catch (RunWatcher.RunIncompleteException e) {
                    String reason = delivery.unrecordedBodies().size() + " of " + bodies.size() + " tasks never recorded, so the run cannot"
                            + " complete: their last invocation failed as a whole (" + String.join("; ", delivery.errors().stream().limit(3).toList()) + ")";
                    err.println("batchpipe sweep: " + c.key() + ": run " + runId + ": " + reason + "; marked failed, going on");
                    return new ConfigurationRun(c, runId, delivery, new SweepReport.Incomplete(c.key(), c.architecture(), c.memoryMb(), c.repeat(),
                            share, concurrency, runId, reason, null));
                }
            }
            Duration left = timeout.minusNanos(System.nanoTime() - started);
            try {
                runs.awaitCompletion(runId, left.isNegative() ? Duration.ZERO : left);
            } catch (RunWatcher.RunIncompleteException e) {
                // the watcher was given the time left after delivery; the user set the whole timeout
                String reason = e instanceof RunWatcher.RunStalledException ? e.reason() : "did not complete within " + timeout.toSeconds()
                        + " s: " + e.progress().finished() + " of " + e.progress().planned() + " tasks counted";
                err.println("batchpipe sweep: " + c.key() + ": run " + runId + " " + reason + "; marked failed, going on");
                return new ConfigurationRun(c, runId, delivery, new SweepReport.Incomplete(c.key(), c.architecture(), c.memoryMb(), c.repeat(), share,
                        concurrency, runId, reason, null));
            }
            return new ConfigurationRun(c, runId, delivery, null);
        });
    }

    /** The stack's side of the runs: planning into its table, watching its progress shards. */
    public Runs runs() {
        return new Runs() {
            @Override
            public List<String> plan(RunSpec runSpec) {
                return AwsSweep.this.plan(runSpec);
            }

            @Override
            public void awaitCompletion(String runId, Duration timeout) throws InterruptedException {
                new RunWatcher(dynamoDb, s3, table).awaitCompletion(runId, timeout, (done, planned) -> { });
            }
        };
    }

    /**
     * Plans the configuration's run in the stack's table and answers its task messages' bodies, which
     * were never sent: a publisher over an SQS client that only keeps what it is given.
     */
    public List<String> plan(RunSpec runSpec) {
        RunSpec spec = new RunSpecParser(limits).check(runSpec);
        KeptMessages kept = new KeptMessages();
        RunStore runs = new RunStore(dynamoDb, table);
        // Planned in one go with no time limit, and nothing is sent while planning, so neither a planning queue nor a
        // completions queue is needed: no task can finish before planning has.
        RunPlanner planner = new RunPlanner(new ObjectLister(s3), runs, new TaskPublisher(kept, "kept://sweep", 1, 1, 0),
                new TaskCodec(limits), new PlanningContinuations(kept, null),
                new CompletionNotice(runs, kept, null), concurrency,
                RunPlanner.Settings.DEFAULT_PLANNING_MARGIN_MS, Clock.systemUTC());
        planner.plan(spec, sent -> { });
        return kept.bodies();
    }

    /**
     * Waits for a configuration's completed run ({@link #run} saw it complete) to be reported, and answers its
     * report and its hash tasks' rates.
     */
    public SweepReport.Measured awaitReport(String runId, LocalSweep.Configuration c, int concurrency, Duration timeout)
            throws InterruptedException {
        RunSummaryItem summary = new RunWatcher(dynamoDb, s3, table).awaitSummary(runId, timeout);
        Report report = summary.fullReport(s3);
        List<Double> rates = LocalSweep.hashRates(new RunReader(dynamoDb, table).read(runId).tasks());
        err.printf(Locale.ROOT, "batchpipe sweep: %s: run %s %s%n", c.key(), runId, report.figures().status());
        return new SweepReport.Measured(c.key(), c.architecture(), c.memoryMb(), c.repeat(), c.roundedShare(), concurrency,
                report.withoutInputs(), null, rates);
    }

    /** An SQS client that sends nothing: it keeps the bodies of the batches it is given and says they were sent. */
    static final class KeptMessages implements SqsClient {
        private final List<String> bodies = new ArrayList<>();

        @Override
        public synchronized SendMessageBatchResponse sendMessageBatch(SendMessageBatchRequest request) {
            List<SendMessageBatchResultEntry> ok = new ArrayList<>();
            for (SendMessageBatchRequestEntry entry : request.entries()) {
                bodies.add(entry.messageBody());
                ok.add(SendMessageBatchResultEntry.builder().id(entry.id()).messageId(UUID.randomUUID().toString()).build());
            }
            return SendMessageBatchResponse.builder().successful(ok).failed(List.<BatchResultErrorEntry>of()).build();
        }

        synchronized List<String> bodies() {
            return List.copyOf(bodies);
        }

        @Override
        public String serviceName() {
            return "sqs";
        }

        @Override
        public void close() {
        }
    }
}
