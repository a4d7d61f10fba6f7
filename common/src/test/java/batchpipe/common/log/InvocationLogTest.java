package batchpipe.common.log;

import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.slf4j.MDC;
import software.amazon.lambda.powertools.logging.argument.StructuredArgument;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class InvocationLogTest {
    @AfterEach
    void clear() {
        MDC.clear();
    }

    @Test
    void around_marksOnlyTheFirstInvocationOfAnOnDemandEnvironmentCold() {
        InvocationLog log = InvocationLog.of(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "on-demand", "POWERTOOLS_SERVICE_NAME", "batchpipe-x"));
        List<Map<String, String>> seen = new ArrayList<>();
        for (int i = 0; i < 3; i++) log.around(new FakeContext("req-" + i), () -> seen.add(MDC.getCopyOfContextMap()));

        assertThat(seen).extracting(m -> m.get("cold_start")).containsExactly("true", "false", "false");
        assertThat(seen).allSatisfy(m -> assertThat(m).containsEntry("service", "batchpipe-x").containsEntry("function_name", "fn"));
        assertThat(seen).extracting(m -> m.get("function_request_id")).containsExactly("req-0", "req-1", "req-2");
        assertThat(MDC.get("function_name")).as("context left behind after the invocation").isNull();
    }

    @Test
    void around_marksTheFirstInvocationAfterEachSnapStartRestoreCold() {
        InvocationLog log = InvocationLog.of(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "snap-start"));
        List<Boolean> cold = new ArrayList<>();
        log.around(new FakeContext("primed"), () -> cold.add(InvocationLog.coldStart())); // a priming call before the checkpoint
        log.restored();
        log.around(new FakeContext("a"), () -> cold.add(InvocationLog.coldStart()));
        log.around(new FakeContext("b"), () -> cold.add(InvocationLog.coldStart()));

        assertThat(cold).containsExactly(true, true, false);
    }

    @Test
    void around_neverMarksProvisionedConcurrencyCold_itsInitRanBeforeAnyRequest() {
        InvocationLog log = InvocationLog.of(Map.of("AWS_LAMBDA_INITIALIZATION_TYPE", "provisioned-concurrency"));
        assertThat(log.around(new FakeContext("a"), InvocationLog::coldStart)).isFalse();
    }

    @Test
    void arguments_dropAPairTheMdcHoldsWithTheSameValue_andRenameOneWithAnotherValue() {
        MDC.put("runId", "r1");
        MDC.put("taskId", "t1");
        Object[] args = StructuredLog.arguments(new Object[]{"runId", "r1", "taskId", "t2", "attempt", 2, "function_name", "x"}, null);

        assertThat(args).extracting(Object::toString).containsExactly("taskIdDetail=t2", "attempt=2", "function_nameDetail=x");
        assertThat(args).allMatch(a -> a instanceof StructuredArgument);
    }

    @Test
    void environmentFields_nameTheFunctionOutsideAnInvocation_onlyOnLambda() {
        assertThat(StructuredLog.environmentFields(Map.of())).isEmpty();
        assertThat(StructuredLog.environmentFields(Map.of("AWS_LAMBDA_FUNCTION_NAME", "fn", "AWS_LAMBDA_FUNCTION_VERSION", "3",
                "AWS_LAMBDA_FUNCTION_MEMORY_SIZE", "512", "POWERTOOLS_SERVICE_NAME", "batchpipe-worker")))
                .containsOnly(Map.entry("function_name", "fn"), Map.entry("function_version", "3"),
                        Map.entry("function_memory_size", "512"), Map.entry("service", "batchpipe-worker"));
    }

    private record FakeContext(String requestId) implements Context {
        public String getAwsRequestId() { return requestId; }
        public String getLogGroupName() { return "/aws/lambda/fn"; }
        public String getLogStreamName() { return "stream"; }
        public String getFunctionName() { return "fn"; }
        public String getFunctionVersion() { return "1"; }
        public String getInvokedFunctionArn() { return "arn:aws:lambda:us-east-1:000000000000:function:fn:live"; }
        public CognitoIdentity getIdentity() { return null; }
        public ClientContext getClientContext() { return null; }
        public int getRemainingTimeInMillis() { return 60_000; }
        public int getMemoryLimitInMB() { return 512; }
        public LambdaLogger getLogger() { return null; }
    }
}
