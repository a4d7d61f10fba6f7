package batchpipe.local.sweep;

import batchpipe.aggregator.Report;
import batchpipe.aggregator.RunReader;
import batchpipe.aggregator.cost.PriceTable;
import batchpipe.aggregator.report.SweepReport;
import batchpipe.common.task.TaskLimits;
import batchpipe.local.report.RunSummaryItem;
import batchpipe.local.run.RunWatcher;
import batchpipe.producer.RunPlanner;
import batchpipe.producer.enqueue.TaskPublisher;
import batchpipe.producer.listing.ObjectLister;
import batchpipe.producer.run.RunStore;
import batchpipe.producer.spec.RunSpec;
import batchpipe.producer.spec.RunSpecParser;
import batchpipe.worker.pool.PoolSize;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.awssdk.services.sqs.model.BatchResultErrorEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequest;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchRequestEntry;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResponse;
import software.amazon.awssdk.services.sqs.model.SendMessageBatchResultEntry;

import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
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
    /** Reference speed for the estimate: jBCrypt at cost 10 on one vCPU (docs/BENCHMARKS.md, GUIDE section 4). */
    static final double SECONDS_PER_HASH_AT_COST_10 = 0.065;

    private final S3Client s3;
    private final DynamoDbClient dynamoDb;
    private final String table;
    private final TaskLimits limits;
    private final PrintStream err;

    public AwsSweep(S3Client s3, DynamoDbClient dynamoDb, String table, TaskLimits limits, PrintStream err) {
        this.s3 = s3;
        this.dynamoDb = dynamoDb;
        this.table = table;
        this.limits = limits;
        this.err = err;
    }

    /** Tasks one run of the spec has: its hash batches and the objects its scan sources list now. */
    public long taskCount(RunSpec spec) {
        long tasks = spec.hash() == null ? 0 : spec.hash().batches();
        ObjectLister lister = new ObjectLister(s3);
        for (RunSpec.ScanSource source : spec.scan()) tasks += lister.list(source).size();
        return tasks;
    }

    /**
     * An estimate of one configuration's Lambda compute, from the spec alone: the hashes at the reference
     * speed, spread over the vCPUs the memory buys; scan tasks are not estimated (their speed depends on
     * the objects' contents). Null when the spec has no hash tasks.
     */
    public static BigDecimal estimatedLambdaCost(RunSpec spec, int memoryMb, String architecture, PriceTable prices) {
        if (spec.hash() == null) return null;
        double cpuSeconds = (double) spec.hash().batches() * spec.hash().batchSize() * SECONDS_PER_HASH_AT_COST_10 * Math.pow(2, spec.hash().cost() - 10);
        double share = Math.min(PoolSize.MAX_LAMBDA_VCPUS, memoryMb / (double) PoolSize.MB_PER_VCPU);
        double seconds = cpuSeconds / share;
        BigDecimal gbSeconds = BigDecimal.valueOf(seconds * memoryMb / 1024.0);
        return gbSeconds.multiply(prices.gbSecondPrice(architecture)).round(new MathContext(3));
    }

    /**
     * Plans the configuration's run in the stack's table and answers its task messages' bodies, which
     * were never sent: a publisher over an SQS client that only keeps what it is given.
     */
    public List<String> plan(Map<String, Object> runSpecJson) {
        RunSpec spec = new RunSpecParser(limits).parse(runSpecJson);
        KeptMessages kept = new KeptMessages();
        RunStore runs = new RunStore(dynamoDb, table);
        // Planned in one go with no time limit, and nothing is sent while planning, so neither a planning queue nor a
        // completions queue is needed: no task can finish before planning has.
        RunPlanner planner = new RunPlanner(new ObjectLister(s3), runs, new TaskPublisher(kept, "kept://sweep", 1, 1, 0),
                new batchpipe.common.task.TaskCodec(limits), new batchpipe.producer.enqueue.PlanningContinuations(kept, null),
                new batchpipe.producer.run.CompletionNotice(runs, kept, null), RunPlanner.Settings.DEFAULT_WORKER_MAX_CONCURRENCY,
                RunPlanner.Settings.DEFAULT_PLANNING_MARGIN_MS, Clock.systemUTC());
        planner.plan(spec, runSpecJson, sent -> { });
        return kept.bodies();
    }

    /** Waits for a configuration's run to be reported, and answers its report and its hash tasks' rates. */
    public SweepReport.Measured awaitReport(String runId, String key, String architecture, int memoryMb, int repeat, int concurrency,
                                            Duration timeout) throws InterruptedException {
        RunWatcher watcher = new RunWatcher(dynamoDb, s3, table);
        watcher.awaitCompletion(runId, timeout, (done, planned) -> { });
        RunSummaryItem summary = watcher.awaitSummary(runId, timeout);
        Report report = summary.fullReport(s3);
        List<Double> rates = LocalSweep.hashRates(new RunReader(dynamoDb, table).read(runId).tasks());
        err.printf(Locale.ROOT, "batchpipe sweep: %s: run %s %s%n", key, runId, report.figures().status());
        return new SweepReport.Measured(key, architecture, memoryMb, repeat, Math.round(memoryMb / 1769.0 * 1000) / 1000.0, concurrency,
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

    /** For the confirmation: each configuration with its estimate. */
    public static Map<String, BigDecimal> estimates(RunSpec spec, List<AliasSweep.Configuration> configurations, PriceTable prices) {
        Map<String, BigDecimal> estimates = new LinkedHashMap<>();
        for (AliasSweep.Configuration c : configurations) estimates.put(c.key(), estimatedLambdaCost(spec, c.memoryMb(), c.architecture(), prices));
        return estimates;
    }
}
