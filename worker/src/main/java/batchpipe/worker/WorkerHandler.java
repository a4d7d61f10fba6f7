package batchpipe.worker;

import batchpipe.common.aws.AwsClients;
import batchpipe.common.aws.LazyClient;
import batchpipe.common.config.FunctionEnvironment;
import batchpipe.common.log.InvocationLog;
import batchpipe.common.priming.Priming;
import batchpipe.common.task.TaskCodec;
import batchpipe.worker.batch.BatchProcessor;
import batchpipe.common.sqs.SqsEventJson;
import batchpipe.worker.hash.Backoff;
import batchpipe.worker.hash.HashExecutor;
import batchpipe.worker.hash.HashItemWriter;
import batchpipe.worker.priming.WorkerPriming;
import batchpipe.worker.record.InvocationBooks;
import batchpipe.worker.record.TaskBooks;
import batchpipe.worker.scan.LogScanner;
import batchpipe.worker.scan.ScanExecutor;
import batchpipe.worker.task.Invocation;
import batchpipe.worker.task.TaskMetrics;
import batchpipe.worker.task.TaskProcessor;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.RequestStreamHandler;
import com.amazonaws.services.lambda.runtime.events.SQSBatchResponse;
import com.amazonaws.services.lambda.runtime.events.SQSEvent;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.sqs.SqsClient;
import software.amazon.lambda.powertools.metrics.Metrics;
import software.amazon.lambda.powertools.metrics.MetricsFactory;
import software.amazon.lambda.powertools.metrics.model.DimensionSet;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Clock;
import java.util.List;
import java.util.concurrent.ForkJoinPool;

/**
 * The SQS-triggered worker: a doorway that hands the batch to {@link BatchProcessor} and answers with
 * the partial batch response (ReportBatchItemFailures). Built once per instance, at init: the DynamoDB
 * client (every task reads and writes its record), the ForkJoin pool, the services, Powertools metrics
 * and the SnapStart hooks. Built on first use: the S3 client (scan tasks only) and the SQS client (only
 * the task that completes a run), so an on-demand cold start does not build clients its first task may
 * never use; the before-checkpoint hook builds both, so a SnapStart snapshot holds them as before.
 * A stream handler: the event is read and the response written by {@link SqsEventJson}, not by the
 * runtime's serializer, which would cost a cold start about 800 classes of shaded Jackson.
 * docs/DEPLOY.md ("What a cold start builds") has the list and the figures.
 */
public final class WorkerHandler implements RequestStreamHandler {
    private final WorkerConfig config;
    private final BatchProcessor batches;
    private final long initMs;
    private final Metrics metrics;
    private final InvocationLog log;
    /** SnapStart hooks: warm-up (and the lazy clients built) before the snapshot, fresh entropy after each restore. */
    private final Priming priming;

    public WorkerHandler() {
        this(System.nanoTime(), WorkerConfig.from(FunctionEnvironment.current()));
    }

    private WorkerHandler(long initStart, WorkerConfig config) {
        this(config, LazyClient.of(AwsClients::s3), LazyClient.of(AwsClients::sqs), AwsClients.dynamoDb(), initStart);
    }

    WorkerHandler(WorkerConfig config, S3Client s3, SqsClient sqs, DynamoDbClient dynamoDb, long initStart) {
        this(config, LazyClient.built(s3), LazyClient.built(sqs), dynamoDb, initStart);
    }

    private WorkerHandler(WorkerConfig config, LazyClient<S3Client> s3Client, LazyClient<SqsClient> sqsClient, DynamoDbClient dynamoDb,
                          long initStart) {
        this.config = config;
        this.log = InvocationLog.of(FunctionEnvironment.current());
        this.priming = WorkerPriming.hooks()
                .warm("clients", () -> {
                    s3Client.get();
                    sqsClient.get();
                })
                .afterRestore(log::restored)
                .register();
        ForkJoinPool pool = new ForkJoinPool(config.poolSize().threads());
        TaskBooks records = TaskBooks.of(dynamoDb, sqsClient, config.tableName(), config.completionsQueueUrl());
        TaskProcessor tasks = new TaskProcessor(new TaskCodec(config.limits()), records,
                new ScanExecutor(s3Client, new LogScanner(pool)),
                new HashExecutor(pool, new HashItemWriter(dynamoDb, config.tableName(), Backoff.DYNAMODB)),
                config.maxReceiveCount(), Clock.systemUTC());
        // Enough messages in flight to keep the pool busy while others wait on S3 or DynamoDB.
        this.batches = new BatchProcessor(tasks, new InvocationBooks(dynamoDb, config.tableName(), records)::finish,
                Math.max(4, 2 * config.poolSize().threads()), config.safetyMarginMs());
        this.metrics = MetricsFactory.getMetricsInstance();
        metrics.setNamespace(config.metricsNamespace());
        metrics.setDefaultDimensions(DimensionSet.of("Service", config.serviceName()));
        this.initMs = (System.nanoTime() - initStart) / 1_000_000;
    }

    @Override
    public void handleRequest(InputStream input, OutputStream output, Context context) throws IOException {
        byte[] event = input.readAllBytes();
        SQSBatchResponse response = log.around(context, () -> process(SqsEventJson.records(event), context));
        output.write(SqsEventJson.write(response));
    }

    /** The same invocation for a test that holds the event as the events library's object. */
    SQSBatchResponse handle(SQSEvent event, Context context) {
        return log.around(context, () -> process(event.getRecords(), context));
    }

    private SQSBatchResponse process(List<SQSEvent.SQSMessage> records, Context context) {
        boolean cold = InvocationLog.coldStart();
        Invocation invocation = new Invocation(context.getAwsRequestId(), context.getFunctionName(),
                context.getFunctionVersion(), context.getMemoryLimitInMB(),
                Invocation.normalizedArchitecture(System.getProperty("os.arch")),
                config.poolSize().threads(), config.poolSize().vcpuShare(), cold, cold ? initMs : null);
        TaskMetrics taskMetrics = new TaskMetrics();
        SQSBatchResponse response = batches.process(records, invocation, context::getRemainingTimeInMillis, taskMetrics);
        taskMetrics.publish(metrics);
        return response;
    }
}
