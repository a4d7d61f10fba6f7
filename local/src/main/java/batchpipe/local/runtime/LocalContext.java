package batchpipe.local.runtime;

import batchpipe.local.template.FunctionDefinition;
import com.amazonaws.services.lambda.runtime.ClientContext;
import com.amazonaws.services.lambda.runtime.CognitoIdentity;
import com.amazonaws.services.lambda.runtime.Context;
import com.amazonaws.services.lambda.runtime.LambdaLogger;

import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/** Lambda's Context for one local invocation: the remaining time counts down from the function's Timeout. */
final class LocalContext implements Context {
    private final FunctionDefinition function;
    private final String requestId;
    private final String functionArn;
    private final long deadlineNanos;
    private final LambdaLogger logger;

    LocalContext(FunctionDefinition function, String requestId, String functionArn, long startNanos, PrintStream log) {
        this.function = function;
        this.requestId = requestId;
        this.functionArn = functionArn;
        this.deadlineNanos = startNanos + function.timeoutSeconds() * 1_000_000_000L;
        this.logger = new LambdaLogger() {
            @Override
            public void log(String message) {
                log.print(message);
            }

            @Override
            public void log(byte[] message) {
                log.print(new String(message, StandardCharsets.UTF_8));
            }
        };
    }

    @Override
    public String getAwsRequestId() {
        return requestId;
    }

    @Override
    public String getLogGroupName() {
        return "/aws/lambda/" + function.functionName();
    }

    @Override
    public String getLogStreamName() {
        return "local/[$LATEST]" + requestId.substring(0, 8);
    }

    @Override
    public String getFunctionName() {
        return function.functionName();
    }

    @Override
    public String getFunctionVersion() {
        return "$LATEST";
    }

    @Override
    public String getInvokedFunctionArn() {
        return functionArn;
    }

    @Override
    public CognitoIdentity getIdentity() {
        return null;
    }

    @Override
    public ClientContext getClientContext() {
        return null;
    }

    @Override
    public int getRemainingTimeInMillis() {
        return (int) Math.max(0, (deadlineNanos - System.nanoTime()) / 1_000_000);
    }

    @Override
    public int getMemoryLimitInMB() {
        return function.memoryMb();
    }

    @Override
    public LambdaLogger getLogger() {
        return logger;
    }
}
