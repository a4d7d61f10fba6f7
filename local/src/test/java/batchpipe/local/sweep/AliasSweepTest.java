package batchpipe.local.sweep;

import batchpipe.common.json.Json;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.mockito.ArgumentCaptor;
import org.mockito.Mockito;
import software.amazon.awssdk.core.SdkBytes;
import software.amazon.awssdk.services.lambda.LambdaClient;
import software.amazon.awssdk.services.lambda.model.CreateAliasRequest;
import software.amazon.awssdk.services.lambda.model.CreateAliasResponse;
import software.amazon.awssdk.services.lambda.model.DeleteAliasRequest;
import software.amazon.awssdk.services.lambda.model.DeleteFunctionRequest;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationRequest;
import software.amazon.awssdk.services.lambda.model.GetFunctionConfigurationResponse;
import software.amazon.awssdk.services.lambda.model.InvokeRequest;
import software.amazon.awssdk.services.lambda.model.InvokeResponse;
import software.amazon.awssdk.services.lambda.model.LastUpdateStatus;
import software.amazon.awssdk.services.lambda.model.PublishVersionRequest;
import software.amazon.awssdk.services.lambda.model.ResourceConflictException;
import software.amazon.awssdk.services.lambda.model.State;
import software.amazon.awssdk.services.lambda.model.UpdateFunctionConfigurationRequest;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.mockito.ArgumentMatchers.any;
import static org.mockito.Mockito.doAnswer;
import static org.mockito.Mockito.doThrow;
import static org.mockito.Mockito.inOrder;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.times;
import static org.mockito.Mockito.verify;

/** The AWS sweep's control sequence against a mocked Lambda client: what it sends, in what order, and what it puts back. */
class AliasSweepTest {
    private static final String WORKER = "batchpipe-WorkerFunction-abc";
    private static final String TWIN = "batchpipe-WorkerTwinFunction-def";
    private static final String QUEUE_ARN = "arn:aws:sqs:eu-west-1:123456789012:batchpipe-TasksQueue";

    private LambdaClient lambda;
    private final AtomicInteger versions = new AtomicInteger();

    @BeforeEach
    void lambda() {
        lambda = MockedLambda.healthy(versions);
        doAnswer(call -> ok()).when(lambda).invoke(any(InvokeRequest.class));
    }

    private AliasSweep sweep(Map<String, String> functions, int maxReceiveCount) {
        return new AliasSweep(lambda, "sweep-20261201T173513Z-bd3aae", functions, QUEUE_ARN, 2, 2, maxReceiveCount, Duration.ofMinutes(1),
                d -> { }, new PrintStream(OutputStream.nullOutputStream()));
    }

    private static InvokeResponse ok() {
        return InvokeResponse.builder().statusCode(200).payload(SdkBytes.fromUtf8String("{\"batchItemFailures\":[]}")).build();
    }

    @Test
    void eachConfiguration_setsMemoryPublishesAliasesWaitsAndDelivers_thenEverythingIsPutBack() throws Exception {
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER), 3);
        List<AliasSweep.Delivery> deliveries = sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885),
                new AliasSweep.Configuration("x86_64-3538", "x86_64", 3538)), c -> List.of("{\"t\":1}", "{\"t\":2}", "{\"t\":3}"));

        assertThat(deliveries).extracting(AliasSweep.Delivery::invocations).containsExactly(2, 2);
        var order = inOrder(lambda);
        order.verify(lambda).getFunctionConfiguration(any(GetFunctionConfigurationRequest.class)); // the memory to restore
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 885));
        order.verify(lambda).publishVersion(any(PublishVersionRequest.class));
        order.verify(lambda).createAlias(CreateAliasRequest.builder().functionName(WORKER).name("sweep-20261201T173513Z-bd3aae-x86_64-885")
                .functionVersion("1").description("batchpipe sweep sweep-20261201T173513Z-bd3aae").build());
        order.verify(lambda).getFunctionConfiguration(GetFunctionConfigurationRequest.builder().functionName(WORKER).qualifier("1").build());
        // By alias: the two invocations run on two threads, so the SDK's Consumer overload of one may come between them.
        order.verify(lambda, times(2)).invoke(Mockito.<InvokeRequest>argThat(r -> r.qualifier().endsWith("-x86_64-885")));
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 3538));
        order.verify(lambda).deleteAlias(DeleteAliasRequest.builder().functionName(WORKER).name("sweep-20261201T173513Z-bd3aae-x86_64-885").build());
        order.verify(lambda).deleteAlias(DeleteAliasRequest.builder().functionName(WORKER).name("sweep-20261201T173513Z-bd3aae-x86_64-3538").build());
        order.verify(lambda).deleteFunction(DeleteFunctionRequest.builder().functionName(WORKER).qualifier("1").build());
        order.verify(lambda).deleteFunction(DeleteFunctionRequest.builder().functionName(WORKER).qualifier("2").build());
        order.verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
        assertThat(sweep.outstanding()).isEmpty();

        ArgumentCaptor<InvokeRequest> invoked = ArgumentCaptor.forClass(InvokeRequest.class);
        verify(lambda, times(4)).invoke(invoked.capture());
        InvokeRequest first = invoked.getAllValues().get(0);
        assertThat(first.functionName()).isEqualTo(WORKER);
        assertThat(first.qualifier()).startsWith("sweep-20261201T173513Z-bd3aae-x86_64-");
        Map<String, Object> event = Json.parseObject(first.payload().asUtf8String());
        @SuppressWarnings("unchecked")
        Map<String, Object> record = ((List<Map<String, Object>>) event.get("Records")).get(0);
        assertThat(record).containsEntry("eventSource", "aws:sqs").containsEntry("eventSourceARN", QUEUE_ARN).containsEntry("awsRegion", "eu-west-1");
        assertThat((Map<String, Object>) record.get("attributes")).containsEntry("ApproximateReceiveCount", "1");
    }

    @Test
    void aFailureHalfway_stillRestoresMemoryAndDeletesWhatWasMade() {
        // The second configuration's alias cannot be made.
        doAnswer(call -> {
            CreateAliasRequest r = call.getArgument(0);
            if (r.name().endsWith("3538")) throw ResourceConflictException.builder().message("alias exists").build();
            return CreateAliasResponse.builder().build();
        }).when(lambda).createAlias(any(CreateAliasRequest.class));
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER), 3);

        assertThatThrownBy(() -> sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885),
                new AliasSweep.Configuration("x86_64-3538", "x86_64", 3538)), c -> List.of("{}"))).hasMessageContaining("alias exists");

        verify(lambda).deleteAlias(DeleteAliasRequest.builder().functionName(WORKER).name("sweep-20261201T173513Z-bd3aae-x86_64-885").build());
        verify(lambda, times(1)).deleteAlias(any(DeleteAliasRequest.class));
        // Both published versions go, the one whose alias failed too.
        verify(lambda).deleteFunction(DeleteFunctionRequest.builder().functionName(WORKER).qualifier("1").build());
        verify(lambda).deleteFunction(DeleteFunctionRequest.builder().functionName(WORKER).qualifier("2").build());
        verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
        assertThat(sweep.outstanding()).isEmpty();
    }

    @Test
    void aFailedRestoreStep_doesNotStopTheOthers() throws Exception {
        doThrow(new RuntimeException("throttled")).when(lambda).deleteAlias(any(DeleteAliasRequest.class));
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER), 3);
        sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885)), c -> List.of("{}"));
        verify(lambda).deleteFunction(any(DeleteFunctionRequest.class));
        verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 1769));
    }

    @Test
    void failedItems_goRoundAgainWithTheNextReceiveCount_boundedByMaxReceiveCount() throws Exception {
        List<String> receiveCounts = new ArrayList<>();
        doAnswer(call -> {
            InvokeRequest r = call.getArgument(0);
            @SuppressWarnings("unchecked")
            List<Map<String, Object>> records = (List<Map<String, Object>>) Json.parseObject(r.payload().asUtf8String()).get("Records");
            List<String> failures = new ArrayList<>();
            for (Map<String, Object> rec : records) {
                @SuppressWarnings("unchecked")
                String count = ((Map<String, String>) rec.get("attributes")).get("ApproximateReceiveCount");
                synchronized (receiveCounts) {
                    receiveCounts.add(rec.get("body") + "@" + count);
                }
                if (rec.get("body").equals("{\"poison\":true}")) failures.add("{\"itemIdentifier\":\"" + rec.get("messageId") + "\"}");
            }
            return InvokeResponse.builder().statusCode(200)
                    .payload(SdkBytes.fromUtf8String("{\"batchItemFailures\":[" + String.join(",", failures) + "]}")).build();
        }).when(lambda).invoke(any(InvokeRequest.class));
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER), 3);

        AliasSweep.Delivery delivery = sweep.run(List.of(new AliasSweep.Configuration("x86_64-1769", "x86_64", 1769)),
                c -> List.of("{\"ok\":1}", "{\"poison\":true}", "{\"ok\":2}")).get(0);

        assertThat(receiveCounts).containsExactlyInAnyOrder("{\"ok\":1}@1", "{\"poison\":true}@1", "{\"ok\":2}@1", "{\"poison\":true}@2",
                "{\"poison\":true}@3");
        assertThat(delivery.redelivered()).isEqualTo(2);
        assertThat(delivery.failedBodies()).containsExactly("{\"poison\":true}");
        // The worker answered for it each time, and on the last attempt recorded it failed: its run can complete.
        assertThat(delivery.unrecordedBodies()).isEmpty();
        assertThat(delivery.errors()).isEmpty();
    }

    @Test
    void aWholeBatchError_sendsEveryItemOfItAgain() throws Exception {
        AtomicInteger calls = new AtomicInteger();
        doAnswer(call -> calls.incrementAndGet() == 1
                ? InvokeResponse.builder().statusCode(200).functionError("Unhandled").payload(SdkBytes.fromUtf8String("{\"errorMessage\":\"boom\"}")).build()
                : ok()).when(lambda).invoke(any(InvokeRequest.class));
        AliasSweep sweep = new AliasSweep(lambda, "sweep-1", Map.of("x86_64", WORKER), QUEUE_ARN, 10, 1, 3, Duration.ofMinutes(1), d -> { },
                new PrintStream(OutputStream.nullOutputStream()));

        AliasSweep.Delivery delivery = sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885)), c -> List.of("{}", "{}")).get(0);

        assertThat(delivery.invocations()).isEqualTo(2);
        assertThat(delivery.redelivered()).isEqualTo(2);
        assertThat(delivery.failedBodies()).isEmpty();
    }

    @Test
    void arm64WithoutTheTwin_isAnErrorNamingCompareArchitectures_beforeAnythingChanges() {
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER), 3);
        assertThatThrownBy(() -> sweep.run(List.of(new AliasSweep.Configuration("arm64-885", "arm64", 885)), c -> List.of("{}")))
                .hasMessageContaining("no worker on arm64").hasMessageContaining("sweep --arch x86_64").hasMessageContaining("CompareArchitectures=true");
        verify(lambda, never()).updateFunctionConfiguration(any(UpdateFunctionConfigurationRequest.class));
    }

    @Test
    void arm64_goesToTheTwin() throws Exception {
        AliasSweep sweep = sweep(Map.of("x86_64", WORKER, "arm64", TWIN), 3);
        sweep.run(List.of(new AliasSweep.Configuration("arm64-885", "arm64", 885)), c -> List.of("{}"));
        verify(lambda).updateFunctionConfiguration(MockedLambda.setsMemory(TWIN, 885));
        verify(lambda, never()).updateFunctionConfiguration(MockedLambda.setsMemory(WORKER, 885));
    }

    @Test
    void aVersionStillPending_isWaitedFor() throws Exception {
        AtomicInteger polls = new AtomicInteger();
        doAnswer(call -> {
            GetFunctionConfigurationRequest r = call.getArgument(0);
            State state = r.qualifier() != null && polls.incrementAndGet() < 3 ? State.PENDING : State.ACTIVE;
            return GetFunctionConfigurationResponse.builder().memorySize(1769).lastUpdateStatus(LastUpdateStatus.SUCCESSFUL).state(state).build();
        }).when(lambda).getFunctionConfiguration(any(GetFunctionConfigurationRequest.class));
        List<Duration> slept = new ArrayList<>();
        AliasSweep sweep = new AliasSweep(lambda, "sweep-1", Map.of("x86_64", WORKER), QUEUE_ARN, 10, 1, 3, Duration.ofMinutes(1), slept::add,
                new PrintStream(OutputStream.nullOutputStream()));

        sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885)), c -> List.of("{}"));

        assertThat(polls.get()).isEqualTo(3);
        assertThat(slept).hasSize(2);
        // Nothing is delivered to a version that is not active yet.
        var order = inOrder(lambda);
        order.verify(lambda, times(3)).getFunctionConfiguration(Mockito.<GetFunctionConfigurationRequest>argThat(r -> r.qualifier() != null));
        order.verify(lambda).invoke(any(InvokeRequest.class));
    }

    /** A sweep of the deployed worker as Lambda keeps it (its live alias on version 1, at 1,769 MB). */
    private static AliasSweep sweepOf(MockedLambda.Deployed worker, ByteArrayOutputStream log) {
        return new AliasSweep(worker.lambda, "sweep-20261201T173513Z-bd3aae", Map.of("x86_64", WORKER), QUEUE_ARN, 2, 2, 3, Duration.ofMinutes(1),
                d -> { }, new PrintStream(log, true, StandardCharsets.UTF_8));
    }

    @Test
    void aMemoryEqualToTheDeployedOne_measuresANewVersion_andCleansUp_leavingLiveWhereItWas() throws Exception {
        MockedLambda.Deployed worker = new MockedLambda.Deployed(WORKER, "x86_64", 1769, Map.of());
        MockedLambda.Deployed.Configuration deployed = worker.latest();
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        AliasSweep sweep = sweepOf(worker, log);

        sweep.run(List.of(new AliasSweep.Configuration("x86_64-1769", "x86_64", 1769)), c -> List.of("{}", "{}", "{}"));

        // The live version (1) was neither measured nor touched: the sweep's own version was, and is gone.
        assertThat(worker.invokedVersions()).hasSize(2).doesNotContain("1");
        assertThat(worker.aliases()).isEqualTo(Map.of("live", "1"));
        assertThat(worker.versions()).containsOnlyKeys("1");
        assertThat(worker.latest()).isEqualTo(deployed);
        assertThat(log.toString(StandardCharsets.UTF_8)).doesNotContain("could not restore");
        assertThat(sweep.outstanding()).isEmpty();
    }

    @Test
    void eachRepeat_runsOnAVersionOfItsOwn_soItPaysItsOwnColdStarts() throws Exception {
        MockedLambda.Deployed worker = new MockedLambda.Deployed(WORKER, "x86_64", 1769, Map.of());
        AliasSweep sweep = sweepOf(worker, new ByteArrayOutputStream());

        sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885), new AliasSweep.Configuration("x86_64-885#2", "x86_64", 885)),
                c -> List.of("{}"));

        assertThat(worker.invokedVersions()).hasSize(2).doesNotHaveDuplicates().doesNotContain("1");
        assertThat(worker.aliases()).isEqualTo(Map.of("live", "1"));
        assertThat(worker.versions()).containsOnlyKeys("1");
    }

    @Test
    void restore_waitsUntilTheMemoryIsBack() throws Exception {
        MockedLambda.Deployed worker = new MockedLambda.Deployed(WORKER, "x86_64", 1769, Map.of());
        worker.pollsWhileUpdating = 2;
        AliasSweep sweep = sweepOf(worker, new ByteArrayOutputStream());

        sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885)), c -> List.of("{}"));

        // The last update is the restore; after it, two polls say InProgress and a third Successful.
        var order = inOrder(worker.lambda);
        order.verify(worker.lambda).updateFunctionConfiguration(Mockito.<UpdateFunctionConfigurationRequest>argThat(
                u -> Integer.valueOf(1769).equals(u.memorySize())));
        order.verify(worker.lambda, times(3)).getFunctionConfiguration(Mockito.<GetFunctionConfigurationRequest>argThat(r -> r.qualifier() == null));
    }

    @Test
    void aRestoreThatFails_isReportedWithLambdasReason() throws Exception {
        MockedLambda.Deployed worker = new MockedLambda.Deployed(WORKER, "x86_64", 1769, Map.of());
        ByteArrayOutputStream log = new ByteArrayOutputStream();
        AliasSweep sweep = sweepOf(worker, log);

        sweep.run(List.of(new AliasSweep.Configuration("x86_64-885", "x86_64", 885)), c -> {
            worker.updateFailsWith = "The KMS key of the function's environment is disabled";
            return List.of("{}");
        });

        assertThat(log.toString(StandardCharsets.UTF_8)).contains("could not restore everything")
                .contains("The KMS key of the function's environment is disabled");
    }
}
