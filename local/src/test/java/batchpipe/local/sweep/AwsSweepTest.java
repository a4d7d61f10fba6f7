package batchpipe.local.sweep;

import batchpipe.common.json.Json;
import batchpipe.local.run.MockedStack;
import batchpipe.producer.plan.PartitionSizing;
import batchpipe.common.spec.RunSpec;
import batchpipe.common.spec.RunSpecParser;
import batchpipe.common.table.RunProgress;
import batchpipe.common.task.TaskLimits;
import software.amazon.awssdk.services.s3.S3Client;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Request;
import software.amazon.awssdk.services.s3.model.ListObjectsV2Response;
import software.amazon.awssdk.services.s3.model.S3Object;
import batchpipe.local.run.RunWatcher;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.Mockito;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.dynamodb.DynamoDbClient;
import software.amazon.awssdk.services.dynamodb.model.PutItemRequest;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.CreateAliasRequest;
import software.amazon.awssdk.services.lambda.model.DeleteAliasRequest;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionRequest;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.PublishVersionRequest;
import software.amazon.awssdk.services.lambda.model.TooManyRequestsException;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/**
 * The AWS sweep's runs against a mocked Lambda client: repeats through one alias per memory size, and a
 * configuration whose run never completes (or whose delivery fails) marked failed while the sweep goes on
 * and everything is put back.
 */
class AwsSweepTest {
    private static final String WORKER = "batchpipe-WorkerFunction-abc";
    private static final String QUEUE_ARN = "arn:aws:sqs:eu-west-1:123456789012:batchpipe-TasksQueue";
    private static final String SWEEP = "sweep-20261201T173513Z-bd3aae";
    private static final RunSpec SPEC = new RunSpec(null, "hash-heavy", List.of(), new RunSpec.HashSpec(3, 2, 4, null));

    private LambdaClient lambda;
    private final AtomicInteger versions = new AtomicInteger();
    private final StackRuns runs = new StackRuns();
    private final ByteArrayOutputStream log = new ByteArrayOutputStream();
    /** Aliases whose worker times out on every invocation (a function error, nothing recorded). */
    private Predicate<String> timesOut = alias -> false;
    /** Aliases whose worker answers every batch as done but records nothing (its table writes are lost). */
    private Predicate<String> recordsNothing = alias -> false;

    /**
     * The stack's side: a planned run is three task messages naming it; a task counts once the worker (the mocked
     * invocation) has answered its message without failing it, as its record would; a run is complete when all are.
     */
    static final class StackRuns implements AwsSweep.Runs {
        final Map<String, Integer> planned = new ConcurrentHashMap<>();
        final Map<String, Set<String>> counted = new ConcurrentHashMap<>();
        final List<RunSpec> specs = new ArrayList<>();

        @Override
        public List<String> plan(RunSpec runSpec) {
            specs.add(runSpec);
            String runId = runSpec.runId();
            planned.put(runId, 3);
            counted.put(runId, ConcurrentHashMap.newKeySet());
            List<String> bodies = new ArrayList<>();
            for (int i = 1; i <= 3; i++) bodies.add(Json.write(Map.of("runId", runId, "taskId", "hash-00000" + i)));
            return bodies;
        }

        void count(String body) {
            Map<String, Object> task = Json.parseObject(body);
            counted.get((String) task.get("runId")).add((String) task.get("taskId"));
        }

        @Override
        public void awaitCompletion(String runId, Duration timeout) throws InterruptedException {
            long deadline = System.nanoTime() + timeout.toNanos();
            while (counted.get(runId).size() < planned.get(runId)) {
                if (System.nanoTime() > deadline) {
                    int done = counted.get(runId).size();
                    throw new RunWatcher.RunIncompleteException(runId, "did not complete within " + timeout.toSeconds() + " s: " + done + " of "
                            + planned.get(runId) + " tasks counted", new RunProgress(planned.get(runId), done, done, 0, 0));
                }
                Thread.sleep(10);
            }
        }
    }

    @BeforeEach
    void lambda() {
        lambda = MockedLambda.healthy(versions);
        doAnswer(call -> {
            InvokeRequest r = call.getArgument(0);
            if (timesOut.test(r.qualifier())) {
                return InvokeResponse.builder().statusCode(200).functionError("Unhandled")
                        .payload(SdkBytes.fromUtf8String("{\"errorType\":\"Sandbox.Timedout\",\"errorMessage\":\"Task timed out after 900.00 seconds\"}")).build();
            }
            if (!recordsNothing.test(r.qualifier())) for (Map<String, Object> record : records(r)) runs.count((String) record.get("body"));
            return InvokeResponse.builder().statusCode(200).payload(SdkBytes.fromUtf8String("{\"batchItemFailures\":[]}")).build();
        }).when(lambda).invoke(any(InvokeRequest.class));
    }

    @SuppressWarnings("unchecked")
    private static List<Map<String, Object>> records(InvokeRequest r) {
        return (List<Map<String, Object>>) Json.parseObject(r.payload().asUtf8String()).get("Records");
    }

    private AliasSweep aliases() {
        // Batches of 2: a run's three tasks take two invocations.
        return new AliasSweep(lambda, SWEEP, Map.of("x86_64", WORKER), QUEUE_ARN, 2, 1, 3, Duration.ofMinutes(1), d -> { },
                new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    private static List<LocalSweep.Configuration> configurations(int repeat, int... memories) {
        List<LocalSweep.Configuration> configurations = new ArrayList<>();
        for (int memory : memories) for (int r = 1; r <= repeat; r++) configurations.add(new LocalSweep.Configuration("x86_64", memory, r));
        return configurations;
    }

    private List<AwsSweep.ConfigurationRun> sweep(AliasSweep aliases, List<LocalSweep.Configuration> configurations, Duration timeout) throws Exception {
        return AwsSweep.run(aliases, SWEEP, SPEC, configurations, runs, 5, timeout, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @Test
    void repeat2_eachRepeatIsARunOfItsOwn_throughAVersionAndAliasOfItsOwn_andEverythingIsPutBack() throws Exception {
        AliasSweep aliases = aliases();
        List<AwsSweep.ConfigurationRun> results = sweep(aliases, configurations(2, 885, 1769), Duration.ofSeconds(30));

        assertThat(results).extracting(AwsSweep.ConfigurationRun::runId).containsExactly(SWEEP + "-x86_64-885", SWEEP + "-x86_64-885-r2",
                SWEEP + "-x86_64-1769", SWEEP + "-x86_64-1769-r2");
        assertThat(results).allSatisfy(r -> {
            assertThat(r.incomplete()).isNull();
            assertThat(r.delivery().messages()).isEqualTo(3);
        });
        assertThat(results).extracting(r -> r.configuration().key()).containsExactly("x86_64-885", "x86_64-885#2", "x86_64-1769", "x86_64-1769#2");
        // Every run is planned with the sweep id and its configuration's key in the label, as locally.
        assertThat(runs.specs).extracting(RunSpec::sweepId).containsOnly(SWEEP);
        assertThat(runs.specs).extracting(RunSpec::label).containsExactly("hash-heavy x86_64-885", "hash-heavy x86_64-885#2",
                "hash-heavy x86_64-1769", "hash-heavy x86_64-1769#2");
        assertThat(runs.counted.values()).allSatisfy(tasks -> assertThat(tasks).hasSize(3));

        // A version and an alias per run, so that a repeat pays its own cold starts, as the first did.
        String alias885 = "sweep-20261201T173513Z-bd3aae-x86_64-885", alias885r2 = alias885 + "-r2";
        String alias1769 = "sweep-20261201T173513Z-bd3aae-x86_64-1769", alias1769r2 = alias1769 + "-r2";
        verify(lambda, times(4)).publishVersion(any(PublishVersionRequest.class));
        verify(lambda, times(4)).createAlias(any(CreateAliasRequest.class));
        var order = inOrder(lambda);
        String version = "1";
        for (String alias : List.of(alias885, alias885r2, alias1769, alias1769r2)) {
            order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, alias.contains("-885") ? 885 : 1769));
            order.verify(lambda).createAlias(CreateAliasRequest.builder().functionName(WORKER).name(alias).functionVersion(version)
                    .description("batchpipe sweep " + SWEEP).build());
            order.verify(lambda, times(2)).invoke(Mockito.<InvokeRequest>argThat(r -> alias.equals(r.qualifier())));
            version = Integer.toString(Integer.parseInt(version) + 1);
        }
        for (String alias : List.of(alias885, alias885r2, alias1769, alias1769r2)) {
            order.verify(lambda).deleteAlias(DeleteAliasRequest.builder().functionName(WORKER).name(alias).build());
        }
        for (String v : List.of("1", "2", "3", "4")) {
            order.verify(lambda).deleteFunction(DeleteFunctionRequest.builder().functionName(WORKER).qualifier(v).build());
        }
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
        assertThat(aliases.outstanding()).isEmpty();

        // The first repeat's tasks all went before the second's, each run's to its own alias.
        ArgumentCaptor<InvokeRequest> invoked = ArgumentCaptor.forClass(InvokeRequest.class);
        verify(lambda, times(8)).invoke(invoked.capture());
        List<String> sequence = new ArrayList<>();
        for (InvokeRequest r : invoked.getAllValues()) {
            for (Map<String, Object> record : records(r)) {
                sequence.add(r.qualifier() + " " + Json.parseObject((String) record.get("body")).get("runId"));
            }
        }
        assertThat(sequence).containsExactly(
                alias885 + " " + SWEEP + "-x86_64-885", alias885 + " " + SWEEP + "-x86_64-885", alias885 + " " + SWEEP + "-x86_64-885",
                alias885r2 + " " + SWEEP + "-x86_64-885-r2", alias885r2 + " " + SWEEP + "-x86_64-885-r2", alias885r2 + " " + SWEEP + "-x86_64-885-r2",
                alias1769 + " " + SWEEP + "-x86_64-1769", alias1769 + " " + SWEEP + "-x86_64-1769", alias1769 + " " + SWEEP + "-x86_64-1769",
                alias1769r2 + " " + SWEEP + "-x86_64-1769-r2", alias1769r2 + " " + SWEEP + "-x86_64-1769-r2", alias1769r2 + " " + SWEEP + "-x86_64-1769-r2");
    }

    @Test
    void aRunThatNeverCompletes_isMarkedFailedWithItsReason_andTheSweepGoesOnAndPutsEverythingBack() throws Exception {
        recordsNothing = alias -> alias.endsWith("-885");
        AliasSweep aliases = aliases();

        List<AwsSweep.ConfigurationRun> results = sweep(aliases, configurations(1, 885, 1769), Duration.ofSeconds(1));

        AwsSweep.ConfigurationRun failed = results.get(0);
        assertThat(failed.incomplete()).isNotNull();
        assertThat(failed.incomplete().reason()).isEqualTo("did not complete within 1 s: 0 of 3 tasks counted");
        assertThat(failed.incomplete().runId()).isEqualTo(SWEEP + "-x86_64-885");
        // Every task was delivered; their records never came.
        assertThat(failed.delivery().failedBodies()).isEmpty();
        assertThat(results.get(1).incomplete()).isNull();
        assertThat(runs.counted.get(SWEEP + "-x86_64-1769")).hasSize(3);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("x86_64-885: run " + SWEEP + "-x86_64-885 did not complete within 1 s: 0 of 3 tasks counted; "
                + "marked failed, going on");

        var order = inOrder(lambda);
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 885));
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
        order.verify(lambda, times(2)).deleteAlias(any(DeleteAliasRequest.class));
        order.verify(lambda, times(2)).deleteFunction(any(DeleteFunctionRequest.class));
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
        assertThat(aliases.outstanding()).isEmpty();
    }

    @Test
    void whenEveryAttemptOfSomeTaskFailsAsAWholeInvocation_theConfigurationStopsAtOnce_showingTheFunctionsError() {
        // No record can come of a task whose every invocation failed (no dead-letter queue behind a direct Invoke):
        // the run cannot complete, so waiting out the ten minutes would only hide the error.
        timesOut = alias -> alias.contains("-885");
        AliasSweep aliases = aliases();

        List<AwsSweep.ConfigurationRun> results = org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(Duration.ofSeconds(15),
                () -> sweep(aliases, configurations(1, 885, 1769), Duration.ofMinutes(10)));

        AwsSweep.ConfigurationRun failed = results.get(0);
        assertThat(failed.incomplete()).isNotNull();
        assertThat(failed.incomplete().reason()).contains("3 of 3 tasks").contains("Sandbox.Timedout: Task timed out after 900.00 seconds");
        // Each item was tried MAX_RECEIVE_COUNT times before the sweep gave up on it.
        assertThat(failed.delivery().unrecordedBodies()).hasSize(3);
        assertThat(failed.delivery().redelivered()).isEqualTo(6);
        assertThat(log.toString(StandardCharsets.UTF_8)).contains("Sandbox.Timedout: Task timed out after 900.00 seconds");
        assertThat(results.get(1).incomplete()).isNull();
        assertThat(aliases.outstanding()).isEmpty();
    }

    @Test
    void aDeliveryThatFails_marksItsConfigurationFailed_andTheSweepGoesOn() throws Exception {
        doAnswer(call -> {
            InvokeRequest r = call.getArgument(0);
            if (r.qualifier().endsWith("-885")) throw TooManyRequestsException.builder().message("Rate exceeded").build();
            for (Map<String, Object> record : records(r)) runs.count((String) record.get("body"));
            return InvokeResponse.builder().statusCode(200).payload(SdkBytes.fromUtf8String("{\"batchItemFailures\":[]}")).build();
        }).when(lambda).invoke(any(InvokeRequest.class));
        AliasSweep aliases = aliases();

        List<AwsSweep.ConfigurationRun> results = sweep(aliases, configurations(1, 885, 1769), Duration.ofSeconds(30));

        assertThat(results.get(0).incomplete().reason()).startsWith("delivering its 3 tasks failed: invoking " + WORKER + ":").contains("Rate exceeded");
        assertThat(results.get(1).incomplete()).isNull();
        assertThat(aliases.outstanding()).isEmpty();
    }

    @Test
    void workload_countsTheObjectsAndBytesThePlannerWouldScanAcrossPagesAndTheHashBatches() {
        S3Client s3 = Mockito.mock(S3Client.class);
        Mockito.when(s3.listObjectsV2(Mockito.any(ListObjectsV2Request.class))).thenReturn(
                ListObjectsV2Response.builder().isTruncated(true).contents(S3Object.builder().key("app/").size(0L).build(),
                        S3Object.builder().key("app/a.zst").size(100L).build(), S3Object.builder().key("app/b.txt").size(7L).build(),
                        S3Object.builder().key("app/empty.zst").size(0L).build()).build(),
                ListObjectsV2Response.builder().isTruncated(false).contents(S3Object.builder().key("app/c.zst").size(20L).build(),
                        S3Object.builder().key("app/d.zst").size(3L).build(), S3Object.builder().key("app/e.zst").size(1_000L).build()).build());
        AwsSweep aws = new AwsSweep(s3, null, "table", TaskLimits.defaults(), 5, new PrintStream(log, true, StandardCharsets.UTF_8));
        RunSpec spec = new RunSpecParser(TaskLimits.defaults()).parse("""
                {"scan": [{"bucket": "logs", "prefix": "app/", "suffix": ".zst", "maxObjects": 3}],
                 "hash": {"batches": 5, "batchSize": 2, "cost": 4}}
                """);

        SweepEstimate.Workload work = aws.workload(spec);

        // a.zst, c.zst and d.zst: no folder marker, no empty object, no other suffix, and the cap of three
        assertThat(work.scanTasks()).isEqualTo(3);
        assertThat(work.scanBytes()).isEqualTo(123);
        assertThat(work.hashTasks()).isEqualTo(5);
        assertThat(work.hashesPerTask()).isEqualTo(2);
        assertThat(work.hashCost()).isEqualTo(4);
        ArgumentCaptor<ListObjectsV2Request> listed = ArgumentCaptor.forClass(ListObjectsV2Request.class);
        Mockito.verify(s3, Mockito.times(2)).listObjectsV2(listed.capture());
        assertThat(listed.getAllValues().get(1).startAfter()).isEqualTo("app/empty.zst");
    }

    @Test
    void plan_sizesTheRunsPartitionsForTheSweepsConcurrency() {
        // 5,000 tasks of ten cheap hashes: their write rate at 200 invocations at once needs more partitions than at 5.
        DynamoDbClient dynamoDb = MockedStack.emptyAnswers(DynamoDbClient.class);
        AwsSweep aws = new AwsSweep(MockedStack.emptyAnswers(S3Client.class), dynamoDb, "table", TaskLimits.defaults(), 200,
                new PrintStream(log, true, StandardCharsets.UTF_8));
        PartitionSizing.Load load = new PartitionSizing.Load(0, false, 5000, 50_000, 4);
        assertThat(PartitionSizing.partitions(load, 200)).isGreaterThan(PartitionSizing.partitions(load, 5));

        List<String> bodies = aws.plan(new RunSpec("sweep-1-x86_64-885", "cheap", List.of(), new RunSpec.HashSpec(5000, 10, 4, null)));

        assertThat(bodies).hasSize(5000);
        ArgumentCaptor<PutItemRequest> puts = ArgumentCaptor.forClass(PutItemRequest.class);
        Mockito.verify(dynamoDb, Mockito.atLeastOnce()).putItem(puts.capture());
        PutItemRequest runRecord = puts.getAllValues().stream().filter(p -> p.item().containsKey("partitions")).findFirst().orElseThrow();
        assertThat(runRecord.item().get("partitions").n()).isEqualTo(Integer.toString(PartitionSizing.partitions(load, 200)));
    }
}
