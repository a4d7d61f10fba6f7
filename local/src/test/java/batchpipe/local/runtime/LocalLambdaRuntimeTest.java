package batchpipe.local.runtime;

import batchpipe.common.json.Json;
import batchpipe.local.template.FunctionDefinition;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class LocalLambdaRuntimeTest {
    private final LocalLambdaRuntime runtime = new LocalLambdaRuntime(LocalLambdaRuntimeTest::definition,
            new PrintStream(OutputStream.nullOutputStream()));

    private static FunctionDefinition definition(String logicalId) {
        return switch (logicalId) {
            case "Sqs" -> function(logicalId, TestHandlers.FailingBodies.class, 10);
            case "Introspect" -> function(logicalId, TestHandlers.Introspecting.class, 10);
            case "Sleep" -> function(logicalId, TestHandlers.Sleeping.class, 1);
            case "Throw" -> function(logicalId, TestHandlers.Throwing.class, 10);
            case "BadInit" -> function(logicalId, TestHandlers.FailingInit.class, 10);
            default -> throw new IllegalArgumentException("unknown function '" + logicalId + "'");
        };
    }

    private static FunctionDefinition function(String id, Class<?> handler, int timeout) {
        return new FunctionDefinition(id, "local-" + id, handler.getName() + "::handleRequest", "java21", 512, timeout,
                List.of("arm64"), Map.of("GREETING", "hello"), List.of());
    }

    @Test
    void workerPoolIsSizedToThisMachineUnlessTheTemplateSaysOtherwise() {
        org.junit.jupiter.api.Assumptions.assumeTrue(System.getenv(LocalLambdaRuntime.LOCAL_POOL_VARIABLE) == null,
                "WORKER_COUNT is set in this process's environment, which then decides");
        Map<String, String> sized = LocalLambdaRuntime.environment(function("Introspect", TestHandlers.Introspecting.class, 10));
        assertThat(sized).containsEntry("WORKER_COUNT", Integer.toString(Runtime.getRuntime().availableProcessors()))
                .containsEntry("AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512").containsEntry("GREETING", "hello");

        FunctionDefinition pinned = new FunctionDefinition("Echo", "local-Echo", TestHandlers.Introspecting.class.getName() + "::handleRequest",
                "java21", 512, 10, List.of("arm64"), Map.of("WORKER_COUNT", "3"), List.of());
        assertThat(LocalLambdaRuntime.environment(pinned)).containsEntry("WORKER_COUNT", "3");
    }

    @AfterEach
    void close() {
        runtime.close();
    }

    @Test
    void sqsEvent_recordsMapOntoTheEventClassAndTheResponseSerializesAsLambdaDoes() {
        String event = """
                {"Records":[{"messageId":"a","body":"ok"},{"messageId":"b","body":"fail"}]}""";
        InvocationResult result = runtime.invoke("Sqs", event.getBytes(StandardCharsets.UTF_8));

        assertThat(result.failed()).isFalse();
        assertThat(Json.parse(result.response())).isEqualTo(Map.of("batchItemFailures", List.of(Map.of("itemIdentifier", "b"))));
    }

    @Test
    void instances_areKeptWarmAndOnlyTheFirstInvocationIsCold() {
        InvocationResult first = runtime.invoke("Introspect", "{}".getBytes(StandardCharsets.UTF_8));
        InvocationResult second = runtime.invoke("Introspect", "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(first.initMs()).isNotNull();
        assertThat(first.reportLine()).contains("Init Duration:");
        // the cold invocation's Billed Duration holds its INIT, the warm one's is its Duration alone
        assertThat(first.billedMs()).isEqualTo((long) Math.ceil(first.durationMs() + first.initMs()));
        assertThat(second.billedMs()).isEqualTo((long) Math.ceil(second.durationMs()));
        assertThat(second.initMs()).isNull();
        assertThat(second.reportLine()).doesNotContain("Init Duration");
        assertThat(Json.parseObject(second.response()).get("instance")).isEqualTo(Json.parseObject(first.response()).get("instance"));
    }

    @Test
    void handler_seesTheFunctionsEnvironmentAndContextAtInit() {
        InvocationResult result = runtime.invoke("Introspect", "{\"x\":1}".getBytes(StandardCharsets.UTF_8));
        Map<String, Object> response = Json.parseObject(result.response());

        assertThat(response.get("greeting")).isEqualTo("hello");
        assertThat(response.get("memoryEnv")).isEqualTo("512");
        assertThat(response.get("memory")).isEqualTo(512L);
        assertThat(response.get("function")).isEqualTo("local-Introspect");
        assertThat(response.get("event")).isEqualTo(Map.of("x", 1L));
        assertThat((Long) response.get("remainingMs")).isBetween(1L, 10_000L);
    }

    @Test
    void invocationPastItsTimeout_isReportedAsATimeoutAndItsInstanceDiscarded() {
        InvocationResult result = runtime.invoke("Sleep", "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(result.timedOut()).isTrue();
        assertThat(result.response()).contains("Task timed out after 1.00 seconds");
        assertThat(result.reportLine()).contains("Status: timeout");
        // The next invocation gets a fresh (cold) instance, as Lambda resets a timed-out environment.
        assertThat(runtime.invoke("Sleep", "{}".getBytes(StandardCharsets.UTF_8)).initMs()).isNotNull();
    }

    @Test
    void handlerException_isReturnedAsLambdasErrorDocument() {
        InvocationResult result = runtime.invoke("Throw", "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(result.error()).isEqualTo("java.lang.IllegalStateException");
        assertThat(Json.parseObject(result.response())).containsEntry("errorMessage", "handler failed on purpose")
                .containsEntry("errorType", "java.lang.IllegalStateException");
    }

    @Test
    void initFailure_isReportedAsInitError() {
        InvocationResult result = runtime.invoke("BadInit", "{}".getBytes(StandardCharsets.UTF_8));

        assertThat(result.error()).isEqualTo("Runtime.InitError");
        assertThat(result.response()).contains("TABLE_NAME is not set");
    }

    @Test
    void unknownFunction_isRefused() {
        assertThatThrownBy(() -> runtime.invoke("Nope", new byte[0])).hasMessageContaining("unknown function 'Nope'");
    }

    @Test
    void billedDuration_roundsUpToTheMillisecond() {
        assertThat(LocalLambdaRuntime.billed(0.2)).isEqualTo(1);
        assertThat(LocalLambdaRuntime.billed(12.0)).isEqualTo(12);
        assertThat(LocalLambdaRuntime.billed(12.01)).isEqualTo(13);
    }

    @Test
    void billedDuration_ofAColdStartHoldsItsInitAsLambdaBillsItSinceAugust2025() {
        // Duration 395.99 ms + Init Duration 265.72 ms = 661.71, billed 662 (a REPORT line AWS printed in October 2025)
        assertThat(LocalLambdaRuntime.billed(395.99, 265.72)).isEqualTo(662);
        assertThat(LocalLambdaRuntime.billed(395.99, null)).isEqualTo(396);
    }
}
